# SPDX-License-Identifier: Apache-2.0
# The modules of rtconform, the only ways they may depend on each other,
# their sources, and the programs built from them.
#
# This is the one place the allowed edges are written: the rtc_module()
# calls below. rtc_module() makes a module's static library from the sources
# it lists, links it to the modules it names (and nothing else of ours), and
# records the edge list in ${PROJECT_BINARY_DIR}/modules.txt, which the test
# `layers` reads to check that no source file includes a header from a
# module it may not use (tests/check_layers.py). Edges are transitive: a
# module may use what its dependencies may use.
#
# Every source is listed by name, never globbed: rtc_module() and
# rtc_listed() record each in ${PROJECT_BINARY_DIR}/sources.txt, and the
# test `sources` (tests/check_sources.py) fails when a .c or .S file in a
# module's folder, or a test of tests/, is listed nowhere. A new file is
# added to its module's list here (a test: tests/CMakeLists.txt).
#
# The pipeline reads top to bottom: requirements are loaded and validated,
# the harness runs them in workers, the reports render the results (and a
# run's results.json is read back), compare and merge work across runs, and
# the command line ties the stages together.
#
# Each module says why it is a module of its own (WHY): the module table of
# docs/architecture.md is made from these calls (rtc_module_table(), at the
# end), so adding a module is one rtc_module() call here.

set(RTC_MODULES_FILE ${PROJECT_BINARY_DIR}/modules.txt)
file(WRITE ${RTC_MODULES_FILE} "# module folder dependencies... (written by cmake/modules.cmake)\n")
set(RTC_SOURCES_FILE ${PROJECT_BINARY_DIR}/sources.txt)
file(WRITE ${RTC_SOURCES_FILE}
  "# every source file the build lists, from the source tree's top (cmake/modules.cmake)\n")

# rtc_listed(file...): record files of the source tree (relative to the
# current source directory, as add_library() takes them) as listed, for the
# test `sources`.
function(rtc_listed)
  foreach(f ${ARGN})
    get_filename_component(abs ${f} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
    file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR} ${abs})
    file(APPEND ${RTC_SOURCES_FILE} "${rel}\n")
  endforeach()
endfunction()

# rtc_module(NAME FOLDER WHY text SOURCES file... [GENERATED file...]
#            [OTHER_SOURCES file...] [DEPS module...] [LIBS target...])
# SOURCES are relative to the top of the tree (this file is included from
# there). GENERATED are made by the
# build; OTHER_SOURCES are the module's sources built only on other machines
# (another architecture's), listed but not compiled here.
function(rtc_module name folder)
  # PARSE_ARGV: a WHY with a ';' in it stays one argument
  cmake_parse_arguments(PARSE_ARGV 2 M "" "WHY" "DEPS;SOURCES;GENERATED;OTHER_SOURCES;LIBS")
  if(NOT M_SOURCES OR NOT M_WHY)
    message(FATAL_ERROR "rtc_module(${name}): no SOURCES or no WHY")
  endif()
  add_library(rtc_${name} STATIC ${M_SOURCES} ${M_GENERATED})
  rtc_listed(${M_SOURCES} ${M_OTHER_SOURCES})
  target_include_directories(rtc_${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(rtc_${name} PRIVATE rtc_options)
  foreach(d ${M_DEPS})
    target_link_libraries(rtc_${name} PUBLIC rtc_${d})
  endforeach()
  if(M_LIBS)
    target_link_libraries(rtc_${name} PUBLIC ${M_LIBS})
  endif()
  string(REPLACE ";" " " deps "${M_DEPS}")
  file(APPEND ${RTC_MODULES_FILE} "${name} ${folder} ${deps}\n")
  # a WHY continued over lines (a \ ending one, the next indented) reads as one
  string(REGEX REPLACE "  +" " " why "${M_WHY}")
  string(REPLACE ";" ", " uses "${M_DEPS}")
  if(NOT uses)
    set(uses nothing)
  endif()
  set_property(GLOBAL APPEND_STRING PROPERTY RTC_MODULE_ROWS
    "| ${name} | `${folder}/` | ${uses} | ${why} |\n")
endfunction()

# rtc_module_table(): the module table of docs/architecture.md, from the
# rtc_module() calls: written to ${PROJECT_BINARY_DIR}/modules.md, and into
# the page (the rows after its header "| module | folder | may use | why |",
# up to the blank line) when they differ, so the page follows this file.
# The test `layers` checks the page's table against modules.txt as well.
function(rtc_module_table)
  get_property(rows GLOBAL PROPERTY RTC_MODULE_ROWS)
  set(head "| module | folder | may use | why |\n|---|---|---|---|\n")
  file(WRITE ${PROJECT_BINARY_DIR}/modules.md "${head}${rows}")
  set(page ${PROJECT_SOURCE_DIR}/docs/architecture.md)
  file(READ ${page} text)
  string(FIND "${text}" "${head}" at)
  if(at LESS 0)
    message(FATAL_ERROR "${page}: no module table (a line \"| module | folder | may use | why |\")")
  endif()
  string(LENGTH "${head}" hlen)
  math(EXPR start "${at} + ${hlen}")
  string(SUBSTRING "${text}" ${start} -1 rest)
  string(FIND "${rest}" "\n\n" end)
  math(EXPR end "${end} + 1")
  string(SUBSTRING "${rest}" ${end} -1 after)
  string(SUBSTRING "${text}" 0 ${start} before)
  if(NOT "${before}${rows}${after}" STREQUAL "${text}")
    message(STATUS "docs/architecture.md: module table made again from cmake/modules.cmake")
    file(WRITE ${page} "${before}${rows}${after}")
  endif()
endfunction()

# rtc_program(NAME SOURCES file... [MODULE module]): an executable of ours,
# linked to at most one module (and through it to that module's edges).
function(rtc_program name)
  cmake_parse_arguments(P "" "MODULE" "SOURCES" ${ARGN})
  add_executable(${name} ${P_SOURCES})
  rtc_listed(${P_SOURCES})
  target_link_libraries(${name} PRIVATE rtc_options)
  if(P_MODULE)
    target_link_libraries(${name} PRIVATE rtc_${P_MODULE})
  endif()
endfunction()

# Embedded texts: the requirements schema and the built-in default profile (and,
# for the cli module, the options' words).
function(rtc_embed name input)
  set(out ${PROJECT_BINARY_DIR}/embed_${name}.c)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DIN=${input} -DOUT=${out} -DNAME=${name}
            -P ${PROJECT_SOURCE_DIR}/cmake/embed.cmake
    DEPENDS ${input} ${PROJECT_SOURCE_DIR}/cmake/embed.cmake
    VERBATIM)
  set(RTC_EMBEDDED ${RTC_EMBEDDED} ${out} PARENT_SCOPE)
endfunction()
rtc_embed(rtc_schema_xsd ${PROJECT_SOURCE_DIR}/requirements/schema/rtconform-requirements.xsd)
rtc_embed(rtc_default_profile ${PROJECT_SOURCE_DIR}/requirements/profiles/default.xml)

# The version and git commit of the tree (rtconform.version, .commit,
# --version): worked out again on every build by cmake/build_id.cmake, which
# rewrites build_id.c only when either changes, so an unchanged tree rebuilds
# nothing and a new version or commit rebuilds that one file.
find_package(Git QUIET)
set(RTC_BUILD_ID_C ${PROJECT_BINARY_DIR}/build_id.c)
add_custom_target(rtc_build_id
  COMMAND ${CMAKE_COMMAND} -DSRC=${PROJECT_SOURCE_DIR} -DOUT=${RTC_BUILD_ID_C}
          -DVERSION=${PROJECT_VERSION} -DGIT=${GIT_EXECUTABLE}
          -P ${PROJECT_SOURCE_DIR}/cmake/build_id.cmake
  BYPRODUCTS ${RTC_BUILD_ID_C}
  VERBATIM)

# base: safe XML reading needs libxml2's headers, but only the modules that
# read XML link it, so that rtconform-worker (measure + base) never maps
# libxml2 (see harness/measure/worker.h).
rtc_module(base base LIBS Threads::Threads m
  WHY "units, diagnostics, SHA-256 and CRC-32, number formatting, shell quoting, safe XML \
      reading, UTF-8, terminal escaping, statistic names, CPU lists, policy names, paths, \
      probe declarations, what the kernel checks before real-time scheduling, the signals \
      that stop a command: things every stage needs and that need nothing themselves"
  SOURCES base/cpulist.c base/crc32.c base/diag.c base/numfmt.c base/probe_decl.c base/procid.c
          base/orderstat.c base/path.c base/policy.c base/quote.c base/rtperm.c base/safeopen.c
          base/sha256.c base/statistic.c base/stopsig.c
          base/strhash.c base/strindex.c base/termsafe.c
          base/units.c base/utc.c base/utf8.c base/xmlsafe.c)
target_include_directories(rtc_base PRIVATE ${LIBXML2_INCLUDE_DIRS})

rtc_module(host host DEPS base
  WHY "reads /proc, /sys and tools once into typed facts (`facts.c`); the fingerprint text is \
      rendered from them and readiness judges them, never the text; knows nothing of a run"
  SOURCES host/facts.c host/fingerprint.c host/identity.c host/readiness.c)

rtc_module(requirements requirements DEPS base LIBS ${RTC_LIB_LIBXML2}
  WHY "the model, the loader, the schema, validation and the shipped profiles; validation \
      checks a file against a catalogue of probe declarations it is given, so it needs no \
      probe code"
  SOURCES requirements/loader.c requirements/loader_model.c requirements/model.c requirements/validate.c
  GENERATED ${RTC_EMBEDDED})

# measure: the worker's code. The timebase backend is chosen by file: the
# TSC on x86_64 (with the coop-sched probe's hand-written context switch),
# the clock elsewhere.
set(RTC_MEASURE_X86_64 harness/measure/timebase_tsc.c harness/measure/timebase_tsc_rates.c
                       harness/measure/probes/coop_switch_x86_64.S)
set(RTC_MEASURE_OTHER_ARCH harness/measure/timebase_clock.c)
if(CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  enable_language(ASM)
  set(RTC_MEASURE_ARCH ${RTC_MEASURE_X86_64})
  set(RTC_MEASURE_NOT_HERE ${RTC_MEASURE_OTHER_ARCH})
else()
  set(RTC_MEASURE_ARCH ${RTC_MEASURE_OTHER_ARCH})
  set(RTC_MEASURE_NOT_HERE ${RTC_MEASURE_X86_64})
endif()
set(RTC_MEASURE_SOURCES harness/measure/timebase_common.c harness/measure/timebase_check.c
          ${RTC_MEASURE_ARCH}
          harness/measure/fault_spec.c
          harness/measure/histogram.c harness/measure/rtenv.c harness/measure/probe.c
          harness/measure/probe_bytime.c harness/measure/probe_counters.c
          harness/measure/probe_cpu.c harness/measure/probe_guard.c
          harness/measure/probe_journal.c
          harness/measure/probe_task.c harness/measure/probe_trace.c harness/measure/worker.c
          harness/measure/probes/clone.c harness/measure/probes/coop_sched.c
          harness/measure/probes/deadline.c harness/measure/probes/ipc_fd.c
          harness/measure/probes/ipc_futex.c harness/measure/probes/ipc_sem.c
          harness/measure/probes/overhead.c harness/measure/probes/priority_inherit.c
          harness/measure/probes/priority_preempt.c harness/measure/probes/priority_wake.c
          harness/measure/probes/probes.c harness/measure/probes/process_create.c
          harness/measure/probes/rr_quantum.c harness/measure/probes/rt_migrate.c
          harness/measure/probes/selftest.c harness/measure/probes/sem_pingpong.c
          harness/measure/probes/thread_create.c harness/measure/probes/timer_semantics.c
          harness/measure/probes/timer_wakeup.c)
rtc_module(measure harness/measure DEPS base LIBS Threads::Threads m rt
  WHY "everything `rtconform-worker` links; it never sees the requirements model, so the \
      measuring process stays small (no libxml2, no jansson)"
  SOURCES ${RTC_MEASURE_SOURCES}
  OTHER_SOURCES ${RTC_MEASURE_NOT_HERE} harness/measure/fault_hooks.c)
# The same sources with selftest's fault hooks (FAULT_DELAY, probes.h), for
# rtconform-worker-faults alone: not a module of its own (modules.txt does
# not list it), the measure module built a second time. The normal worker's
# object code is not touched by the hooks.
add_library(rtc_measure_faults STATIC ${RTC_MEASURE_SOURCES} harness/measure/fault_hooks.c)
target_compile_definitions(rtc_measure_faults PRIVATE RTC_FAULT_HOOKS)
target_include_directories(rtc_measure_faults PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(rtc_measure_faults PRIVATE rtc_options)
target_link_libraries(rtc_measure_faults PUBLIC rtc_base Threads::Threads m rt)

rtc_module(harness harness DEPS requirements measure host LIBS ${RTC_LIB_JANSSON}
  WHY "runs a requirement in four stages, one file each: prepare (counts, probe, result memory,\
       the worker's order), spawn (fork and exec of the worker), supervise (the watchdog, \
      interrupts, progress, the background load), classify (how it ended becomes a verdict, \
      then the limits are judged)"
  SOURCES harness/estimate.c harness/interval.c harness/load.c harness/plan.c harness/runinfo.c
          harness/runner.c
          harness/runner_classify.c harness/live.c harness/runner_prepare.c
          harness/runner_spawn.c harness/runner_supervise.c
          harness/explain.c harness/explain_out.c harness/explain_parse.c
          harness/stats.c harness/summary.c harness/trace.c harness/trace_keep.c
          harness/trace_steal.c harness/verdict.c
  GENERATED ${RTC_BUILD_ID_C})
add_dependencies(rtc_harness rtc_build_id)

rtc_module(reports reports DEPS harness LIBS ${RTC_LIB_LIBXML2} ${RTC_LIB_JANSSON}
  WHY "renders one run's report view (the view and its writers; the one frame and style \
      sheet of every HTML page, `page.c`; the one JUnit writer of every junit.xml, `junit.h`); \
      it measures, inspects and reads nothing, and takes a result's numbers from its summary \
      (`harness/summary.h`), never from the result memory"
  SOURCES reports/csv.c reports/html.c reports/html_plot.c reports/json.c reports/junit.c
          reports/html_time.c reports/html_why.c reports/ival.c
          reports/journal.c reports/kcidb.c reports/lava.c reports/link.c reports/openmetrics.c reports/page.c
          reports/report.c
          reports/svg.c reports/traceability.c reports/trend.c
          reports/text.c reports/view.c reports/xmlw.c)

rtc_module(read reports/read DEPS reports LIBS ${RTC_LIB_JANSSON}
  WHY "reads a results.json back into a report view for `report`, `compare` and `merge`; a \
      module of its own, so the layers test keeps every writer from reading; refuses \
      junit.xml, which is never read back"
  SOURCES reports/read/figures.c reports/read/figures_hist.c reports/read/figures_runs.c reports/read/journal_read.c reports/read/json_read.c
    reports/read/json_field.c reports/read/json_split.c reports/read/explain_read.c
    reports/read/read.c)

rtc_module(across across DEPS reports LIBS ${RTC_LIB_JANSSON}
  WHY "the commands across runs, files named by them: compare (`compare.c` the rule, \
      `compare_interval.c` the interval of a figure's ratio and Student's t, `compare_text.c` \
      the table and junit.xml, `compare_html.c`) and merge (`merge.c`, `merge_html.c`: \
      fleet.html); they are given views and read no file themselves"
  SOURCES across/compare.c across/compare_html.c across/compare_interval.c across/compare_text.c
          across/merge.c across/merge_html.c)

rtc_module(evidence evidence DEPS read
  WHY "what vouches for an output directory: manifest.c writes and reads MANIFEST.sha256, \
      sign.c has minisign or GnuPG sign it (`run --sign`), sign_check.c judges its signatures, \
      verify.c checks a directory against it (`rtconform verify`; a selftest record by the \
      check selftest gives it)"
  SOURCES evidence/manifest.c evidence/sign.c evidence/sign_check.c evidence/verify.c)

rtc_module(output output DEPS across evidence
  WHY "every command's outputs (run, probe, report, compare, merge, selftest), from one table \
      of output kinds (`output/output.c`): the output options parsed by one function, each output \
      checked before anything is measured or read (no name of rtconform's own, no input or \
      other output overwritten, no planted link followed, writable), its missing directory \
      made and removed again on refusal (`output/path.c`), each directory locked (`output/lock.c`), each \
      file written atomically, the manifest written and signed last"
  SOURCES output/lock.c output/output.c output/path.c)

rtc_module(selftest selftest DEPS output
  WHY "`rtconform selftest`'s known-answer cases (`selftest_cases.c`, `selftest_trace.c`, run \
      one by one and all in turn by `selftest_run.c`), its validation record written \
      (`selftest_record.c`), read back and verified (`selftest_read.c`)"
  SOURCES selftest/selftest_cases.c selftest/selftest_read.c
          selftest/selftest_record.c selftest/selftest_run.c selftest/selftest_trace.c)

# The words of every option (--help's, rtconform(1)'s), embedded for cli/options.c;
# after the requirements module, whose GENERATED takes every embedded text before.
rtc_embed(rtc_options_text ${PROJECT_SOURCE_DIR}/man/options.txt)
rtc_module(cli cli DEPS selftest
  WHY "the subcommands (explain.c prints what `harness/explain.c` makes of a saved trace; \
      verify.c and selftest.c parse their options and call evidence/ and selftest/); main.c \
      only sets up and dispatches; options.c holds every command's option table \
      (docs/cli-options.md); layout.c finds the helpers and profiles, profiles.c names the \
      shipped profiles"
  SOURCES cli/common.c cli/compare.c cli/env.c cli/explain.c cli/layout.c cli/list.c
          cli/merge.c cli/options.c cli/verify.c cli/probe.c cli/profiles.c cli/progress.c cli/report.c cli/run.c
          cli/run_faults.c cli/run_journal.c cli/run_metrics.c cli/selftest.c
          cli/validate.c
  GENERATED ${PROJECT_BINARY_DIR}/embed_rtc_options_text.c)

# The programs. rtconform is the command line's main.c on the cli module.
rtc_program(rtconform SOURCES cli/main.c MODULE cli)
# The measuring process, exec'd by the runner (harness/measure/worker.h): the
# measure module alone, so it never maps libxml2 or jansson.
rtc_program(rtconform-worker SOURCES harness/measure/worker_exec.c MODULE measure)
# The worker `rtconform selftest` measures with when it injects a delay
# (RTC_SELFTEST_FAULTS delay=...,every=...): the same program on the measure
# sources built with the fault hooks (rtc_measure_faults, above). `run`
# starts it only when that variable asks for a delay.
add_executable(rtconform-worker-faults harness/measure/worker_exec.c)
target_link_libraries(rtconform-worker-faults PRIVATE rtc_options rtc_measure_faults)
# The no-op child of the spawn / fork-exec probes (the empty proc.exe of
# docs/background.md): no module at all.
rtc_program(rtconform-nop SOURCES harness/measure/nop.c)
# The fault libraries of `rtconform selftest` (docs/qualification.md), beside
# the worker: the tests' fakes (tests/fake/, listed there) built with
# RTC_SELFTEST_GUARD, which makes them do nothing unless RTC_SELFTEST_FAULTS
# is set, as selftest alone sets it.
foreach(lib sched clock ipc)
  add_library(rtconform-fault-${lib} MODULE tests/fake/fake_${lib}.c)
  set_target_properties(rtconform-fault-${lib} PROPERTIES PREFIX "" SUFFIX ".so"
    LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR})
  target_compile_definitions(rtconform-fault-${lib} PRIVATE RTC_SELFTEST_GUARD)
  target_link_libraries(rtconform-fault-${lib} PRIVATE rtc_options ${CMAKE_DL_LIBS})
endforeach()
add_dependencies(rtconform rtconform-worker rtconform-worker-faults rtconform-nop rtconform-fault-sched
                 rtconform-fault-clock rtconform-fault-ipc)

rtc_module_table()
