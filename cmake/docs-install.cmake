# SPDX-License-Identifier: Apache-2.0
# What rtconform installs for people and shells: the man pages rtconform(1)
# and rtconform-requirements(5), compressed as Debian ships man pages, and
# the bash completion. Self-contained: included once from CMakeLists.txt,
# beside the install rules of the programs.
include(GNUInstallDirs)

find_program(RTC_GZIP gzip REQUIRED)
set(RTC_MAN_PAGES rtconform.1 rtconform-requirements.5)
set(RTC_MAN_GZ)
# rtconform(1)'s OPTIONS entries are made from the option tables
# (cli/options.c, their words man/options.txt): `rtconform --man-page` copies man/rtconform.1 with each
# `.\" rtconform-options CMD` line replaced by CMD's entries, into
# ${PROJECT_BINARY_DIR}/man/rtconform.1, the page installed and tested.
set(RTC_MAN_PAGE1 ${PROJECT_BINARY_DIR}/man/rtconform.1)
if(CMAKE_CROSSCOMPILING AND NOT CMAKE_CROSSCOMPILING_EMULATOR)
  # The rtconform built cannot run here: the tables and the page's maker
  # alone (cli/options.c with RTC_MAN_TOOL), built for this machine.
  find_program(RTC_HOST_CC NAMES cc gcc REQUIRED)
  set(RTC_MAN_TOOL_SOURCES ${PROJECT_SOURCE_DIR}/cli/options.c
      ${PROJECT_SOURCE_DIR}/base/safeopen.c ${PROJECT_SOURCE_DIR}/base/termsafe.c
      ${PROJECT_SOURCE_DIR}/base/utf8.c ${PROJECT_BINARY_DIR}/embed_rtc_options_text.c)
  set(RTC_MAN_MAKER ${PROJECT_BINARY_DIR}/rtconform-man-page)
  add_custom_command(OUTPUT ${RTC_MAN_MAKER}
    COMMAND ${RTC_HOST_CC} -std=gnu11 -D_GNU_SOURCE -DRTC_MAN_TOOL -I${PROJECT_SOURCE_DIR}
            -o ${RTC_MAN_MAKER} ${RTC_MAN_TOOL_SOURCES}
    DEPENDS ${RTC_MAN_TOOL_SOURCES} ${PROJECT_SOURCE_DIR}/cli/options.h VERBATIM)
  set(RTC_MAN_MAKE ${RTC_MAN_MAKER})
else()
  set(RTC_MAN_MAKER rtconform)
  set(RTC_MAN_MAKE ${CMAKE_CROSSCOMPILING_EMULATOR} $<TARGET_FILE:rtconform>)
endif()
add_custom_command(OUTPUT ${RTC_MAN_PAGE1}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
  COMMAND ${RTC_MAN_MAKE} --man-page ${PROJECT_SOURCE_DIR}/man/rtconform.1 > ${RTC_MAN_PAGE1}
  DEPENDS ${RTC_MAN_MAKER} ${PROJECT_SOURCE_DIR}/man/rtconform.1
          ${PROJECT_SOURCE_DIR}/man/options.txt VERBATIM)
foreach(page ${RTC_MAN_PAGES})
  set(in ${PROJECT_SOURCE_DIR}/man/${page})
  if(page STREQUAL "rtconform.1")
    set(in ${RTC_MAN_PAGE1})
  endif()
  set(out ${PROJECT_BINARY_DIR}/man/${page}.gz)
  # -n: no name or time stamp in the archive, so a rebuild is the same bytes.
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
    COMMAND ${RTC_GZIP} -9nc ${in} > ${out}
    DEPENDS ${in} VERBATIM)
  list(APPEND RTC_MAN_GZ ${out})
  string(REGEX REPLACE ".*\\.([0-9])$" "\\1" section ${page})
  install(FILES ${out} DESTINATION ${CMAKE_INSTALL_MANDIR}/man${section})
endforeach()
add_custom_target(rtc_man ALL DEPENDS ${RTC_MAN_GZ})

# bash-completion loads completions/<command> on first use of the command.
install(FILES ${PROJECT_SOURCE_DIR}/completion/rtconform.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME rtconform)
