# SPDX-License-Identifier: Apache-2.0
# bash completion for rtconform(1).
#
# Everything offered is asked of the rtconform being completed, so the
# completion stays true as the program changes: the subcommands from
# `rtconform --help`, a command's options and what each takes (FILE, DIR,
# a|b|c) from its option table (`rtconform --list-options CMD`), the
# probes, their parameters and the values each parameter takes from
# `rtconform list`, the requirement ids of --only from `rtconform list
# FILE`, and the shipped profiles from `rtconform list --profiles`.

# _rtconform_run ARGS... : the rtconform being completed, its errors hidden.
_rtconform_run() {
  local prog="${COMP_WORDS[0]}"
  [[ $prog == "~/"* ]] && prog="$HOME/${prog#"~/"}"
  command "$prog" "$@" 2>/dev/null
}

_rtconform_commands() {
  _rtconform_run --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }'
}

# _rtconform_optrows CMD : CMD's option table as the program lists it
# (cli/options.c): "--NAME<TAB>-L<TAB>ARG" a line, empty fields for none.
_rtconform_optrows() {
  _rtconform_run --list-options "$1"
}

# _rtconform_options CMD : every option of CMD, long and short.
_rtconform_options() {
  _rtconform_optrows "$1" | awk -F'\t' '{ print $1 } $2 != "" { print $2 }' | sort -u
}

# _rtconform_metavar CMD OPTION : the name of OPTION's value ("FILE", "DIR",
# "fifo|rr|other", "K=V", "ID[,ID...]"), or nothing for a flag.
_rtconform_metavar() {
  _rtconform_optrows "$1" | awk -F'\t' -v o="$2" '$1 == o || ($2 != "" && $2 == o) { print $3; exit }'
}

# _rtconform_files_named : the words already on the command line that are
# not an option, nor an option's value (bash splits a word at '=': "=" and
# the value after it are neither): the files and profiles, or a probe's name.
_rtconform_files_named() {
  local i w
  for ((i = 2; i < COMP_CWORD; i++)); do
    w="${COMP_WORDS[i]}"
    if [[ $w == = ]]; then
      ((i++))
      continue
    fi
    if [[ $w == -* ]]; then
      [[ $w != *=* && ${COMP_WORDS[i + 1]:-} != = && -n $(_rtconform_metavar "${COMP_WORDS[1]}" "$w") ]] && ((i++))
      continue
    fi
    echo "$w"
  done
}

# _rtconform_req_ids : the requirement ids of the files named (none: the
# built-in default profile), from `rtconform list FILE`.
_rtconform_req_ids() {
  local f files
  mapfile -t files < <(_rtconform_files_named)
  ((${#files[@]})) || files=(default)
  for f in "${files[@]}"; do
    _rtconform_run list "$f" | awk 'NR > 1 && /^[^ ]/ { print $1 }'
  done
}

_rtconform_probes() {
  _rtconform_run list | awk '/^[a-z][a-z0-9-]*$/ { print $1 }'
}

# _rtconform_params PROBE : "NAME=" for each parameter of PROBE.
_rtconform_params() {
  _rtconform_run list | awk -v p="$1" '/^[^ ]/ { on = ($1 == p); next } on && $1 == "param" { print $2 "=" }'
}

# _rtconform_param_values PROBE NAME : the values PROBE declares for its
# parameter NAME, one a line: the choices of "param NAME a|b|c (default a)";
# nothing for a free value ("<count>", "<cpu list>").
_rtconform_param_values() {
  _rtconform_run list | awk -v p="$1" -v n="$2" '
    /^[^ ]/ { on = ($1 == p); next }
    on && $1 == "param" && $2 == n {
      v = $0; sub(/^ +param +[^ ]+ +/, "", v); sub(/ \(default .*/, "", v)
      if (v !~ /^</) { gsub(/\|/, "\n", v); print v }
    }'
}

_rtconform_profiles() {
  _rtconform_run list --profiles | awk '$2 ~ /^[0-9]+$/ && $3 ~ /^requirement/ { print $1 }'
}

# _rtconform_probe_named : the probe already on a `probe` command line: its
# first word that is neither an option nor an option's value.
_rtconform_probe_named() {
  _rtconform_files_named | head -n 1
}

# _rtconform_files : the reply is file names: bash quotes them (a name with
# a blank goes in as one word) and ends a directory with '/' rather than a
# space, so the next TAB goes on into it.
_rtconform_files() {
  compopt -o filenames 2>/dev/null
}

# _rtconform_value CMD OPTION CUR : complete the value of OPTION.
_rtconform_value() {
  local meta
  if [[ $2 == --gpg-key ]]; then # verify: the fingerprints of the keyring's keys
    mapfile -t COMPREPLY < <(compgen -W "$(gpg --batch --with-colons --list-keys 2>/dev/null |
      awk -F: '$1 == "pub" { p = 1; next } p && $1 == "fpr" { print $10 } { p = 0 }')" -- "$3")
    return
  fi
  meta="$(_rtconform_metavar "$1" "$2")"
  case "$meta" in
    DIR) _rtconform_files; mapfile -t COMPREPLY < <(compgen -d -- "$3") ;;
    FILE | FILE.* | *.json | *.xml) _rtconform_files; mapfile -t COMPREPLY < <(compgen -f -- "$3") ;;
    K=V)
      if [[ $3 == *=* ]]; then # NAME=VALUE in one word: the value, after NAME=
        mapfile -t COMPREPLY < <(compgen -P "${3%%=*}=" -W "$(_rtconform_param_values "$(_rtconform_probe_named)" "${3%%=*}")" -- "${3#*=}")
      else
        mapfile -t COMPREPLY < <(compgen -W "$(_rtconform_params "$(_rtconform_probe_named)")" -- "$3")
        compopt -o nospace 2>/dev/null
      fi ;;
    ID*) # --only A,B: the ids after the last comma
      local pre=""
      [[ $3 == *,* ]] && pre="${3%,*},"
      mapfile -t COMPREPLY < <(compgen -P "$pre" -W "$(_rtconform_req_ids)" -- "${3##*,}") ;;
    *"|"*) mapfile -t COMPREPLY < <(compgen -W "$(tr '|' '\n' <<<"$meta" | grep -E '^[a-z]+$')" -- "$3") ;;
    *) COMPREPLY=() ;;
  esac
}

_rtconform() {
  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD - 1]}"
  COMPREPLY=()
  if ((COMP_CWORD == 1)); then
    mapfile -t COMPREPLY < <(compgen -W "$(_rtconform_commands) --help --version" -- "$cur")
    return
  fi
  local cmd="${COMP_WORDS[1]}"
  # A value after '=': bash splits a word at '=' (it is in
  # COMP_WORDBREAKS), so `--param mechanism=` arrives as "--param",
  # "mechanism", "=", `--param=mechanism=` as "--param", "=", "mechanism",
  # "=", `--output=` as "--output", "=", each with what is typed of the
  # value after them; the reply replaces only what follows the '='.
  local eq=-1 val="" opt="" name=""
  if [[ $cur == = ]]; then
    eq=$COMP_CWORD
  elif [[ $prev == = ]]; then
    eq=$((COMP_CWORD - 1)) val="$cur"
  fi
  if ((eq >= 3)); then
    local w1="${COMP_WORDS[eq - 1]}" w2="${COMP_WORDS[eq - 2]}" w3="${COMP_WORDS[eq - 3]:-}"
    if [[ $w1 == -* ]]; then # --opt=VALUE
      opt="$w1"
    elif [[ $w2 == -* ]]; then # --opt NAME=VALUE
      opt="$w2" name="$w1"
    elif [[ $w2 == = && $w3 == -* ]]; then # --opt=NAME=VALUE
      opt="$w3" name="$w1"
    fi
  fi
  if [[ -n $opt && -z $name ]]; then
    _rtconform_value "$cmd" "$opt" "$val"
    return
  fi
  if [[ $opt == -* && $(_rtconform_metavar "$cmd" "$opt") == K=V ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_rtconform_param_values "$(_rtconform_probe_named)" "$name")" -- "$val")
    return
  fi
  if [[ $prev == -* && -n $(_rtconform_metavar "$cmd" "$prev") ]]; then
    _rtconform_value "$cmd" "$prev" "$cur"
    return
  fi
  if [[ $cur == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_rtconform_options "$cmd")" -- "$cur")
    return
  fi
  case "$cmd" in
    run | validate | list)
      _rtconform_files
      mapfile -t COMPREPLY < <(compgen -W "$(_rtconform_profiles)" -- "$cur"; compgen -f -X '!*.xml' -- "$cur"; compgen -d -- "$cur") ;;
    probe)
      [[ -z $(_rtconform_probe_named) ]] && mapfile -t COMPREPLY < <(compgen -W "$(_rtconform_probes)" -- "$cur") ;;
    # a run's results.json (or the directory holding it)
    report | merge | compare)
      _rtconform_files
      mapfile -t COMPREPLY < <(compgen -f -X '!*.json' -- "$cur"; compgen -d -- "$cur") ;;
    # a run's output directory (selftest: only its -o DIR, offered by option)
    verify)
      _rtconform_files
      mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
    # a saved trace on breach (trace-<ID>.txt)
    explain)
      _rtconform_files
      mapfile -t COMPREPLY < <(compgen -f -X '!*.txt' -- "$cur"; compgen -d -- "$cur") ;;
  esac
}
complete -F _rtconform rtconform
