# SPDX-License-Identifier: Apache-2.0
# build_id.cmake - the version of rtconform and the git commit it is built
# from, for --version and every report (rtconform.version, rtconform.commit),
# as runinfo_version and runinfo_commit (harness/runinfo.h). Run in script
# mode on every build by the target rtc_build_id (cmake/modules.cmake):
#
#   cmake -DSRC=<source dir> -DOUT=<generated .c> [-DVERSION=<version>]
#         [-DGIT=<git>] -P build_id.cmake
#
# The version is VERSION, the project's (project(... VERSION)), or "unknown"
# when it is not given.
#
# The commit is `git rev-parse --short=12 HEAD` of SRC, with "-dirty" when
# `git diff --quiet HEAD` finds changes to tracked files (staged or not;
# untracked files do not count) or cannot tell. It is "unknown" when git is
# missing, or when SRC is not the top of a git work tree (an exported tree,
# even one unpacked inside another repository). OUT is written only when its
# text changes (configure_file), so an unchanged version and commit recompile
# nothing, and a new one recompiles this one file.

set(commit "unknown")
if(GIT)
  execute_process(COMMAND ${GIT} -C ${SRC} rev-parse --show-toplevel
    RESULT_VARIABLE rc OUTPUT_VARIABLE top ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  get_filename_component(top "${top}" REALPATH)
  get_filename_component(src "${SRC}" REALPATH)
  if(rc EQUAL 0 AND top STREQUAL src)
    execute_process(COMMAND ${GIT} -C ${SRC} rev-parse --short=12 --verify -q HEAD
      RESULT_VARIABLE rc OUTPUT_VARIABLE head ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(rc EQUAL 0 AND head MATCHES "^[0-9a-f]+$")
      set(commit "${head}")
      execute_process(COMMAND ${GIT} -C ${SRC} diff --quiet HEAD --
        RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
      if(NOT rc EQUAL 0)
        set(commit "${commit}-dirty")
      endif()
    endif()
  endif()
endif()

set(RTC_COMMIT "${commit}")
set(RTC_VERSION "unknown")
if(VERSION)
  set(RTC_VERSION "${VERSION}")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/build_id.c.in ${OUT} @ONLY)
