# SPDX-License-Identifier: Apache-2.0
# What `cmake --install` puts where, and the Debian package `cpack -G DEB`
# makes from it (docs/install.md). Included from CMakeLists.txt after the
# targets; RTC_INSTALL_HELPERDIR and RTC_INSTALL_PROFILEDIR are set there,
# beside the relative paths rtconform finds them by.

install(TARGETS rtconform RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The helpers are run by rtconform only, so they live in libexec.
install(TARGETS rtconform-worker rtconform-worker-faults rtconform-nop RUNTIME DESTINATION ${RTC_INSTALL_HELPERDIR})
# selftest's fault libraries (inert unless selftest sets RTC_SELFTEST_FAULTS).
install(TARGETS rtconform-fault-sched rtconform-fault-clock rtconform-fault-ipc
        LIBRARY DESTINATION ${RTC_INSTALL_HELPERDIR})
file(GLOB RTC_SHIPPED_PROFILES ${PROJECT_SOURCE_DIR}/requirements/profiles/*.xml)
install(FILES ${RTC_SHIPPED_PROFILES} DESTINATION ${RTC_INSTALL_PROFILEDIR})
# The schema, for editors that validate a requirements file as it is written.
install(FILES ${PROJECT_SOURCE_DIR}/requirements/schema/rtconform-requirements.xsd
        DESTINATION ${CMAKE_INSTALL_DATADIR}/rtconform/schema)
file(GLOB RTC_DOC_PAGES ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${RTC_DOC_PAGES}
        DESTINATION ${CMAKE_INSTALL_DOCDIR})

# ---- the Debian package: cpack -G DEB. A Debian package installs under
# /usr (policy; lintian refuses /usr/local), so the package's prefix is /usr
# whatever the build's: `cmake --install` keeps CMAKE_INSTALL_PREFIX (by
# default /usr/local, right for a build installed by hand), and cpack
# installs the same relative directories under RTC_PACKAGE_PREFIX.

# The Maintainer field. The default is neutral (example.org is reserved for
# examples, RFC 2606) and a well-formed address, so lintian accepts it; a
# real package sets its own.
set(RTC_PACKAGE_MAINTAINER "rtconform maintainers <rtconform@example.org>" CACHE STRING
    "Maintainer field of the Debian package")
if(RTC_PACKAGE_MAINTAINER STREQUAL "rtconform maintainers <rtconform@localhost>")
  # the old default, kept in an existing build's cache: lintian refused it
  set(RTC_PACKAGE_MAINTAINER "rtconform maintainers <rtconform@example.org>" CACHE STRING
      "Maintainer field of the Debian package" FORCE)
endif()
# Debian asks for "Name <address>", and lintian refuses (bogus-mail-host) an
# address whose host is not a domain a mail can reach: localhost, a name
# without a dot. Refused here, at configure time, rather than found in a
# package already made: a name, then a user part and a host of two or more
# labels that is not localhost or localdomain.
set(rtc_label "[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?") # one label of a domain
if(NOT RTC_PACKAGE_MAINTAINER MATCHES "^[^<>@]*[^<>@ ] <[A-Za-z0-9._%+-]+@(${rtc_label}\\.)+${rtc_label}>$"
   OR RTC_PACKAGE_MAINTAINER MATCHES "[@.](localhost|localdomain)[.>]")
  message(FATAL_ERROR "RTC_PACKAGE_MAINTAINER \"${RTC_PACKAGE_MAINTAINER}\" is not "
    "\"Name <user@mail.domain>\" with a domain mail can reach (lintian: bogus-mail-host): "
    "configure with -DRTC_PACKAGE_MAINTAINER=\"Your Name <you@your.domain>\"")
endif()
# The changelog Debian policy asks of a package, gzip'd without a time stamp
# (its date honours SOURCE_DATE_EPOCH), installed with the documentation.
string(TIMESTAMP RTC_PACKAGE_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
configure_file(${PROJECT_SOURCE_DIR}/cmake/deb/changelog.in ${PROJECT_BINARY_DIR}/deb/changelog @ONLY)
add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/deb/changelog.gz
  COMMAND gzip -9nkf changelog
  WORKING_DIRECTORY ${PROJECT_BINARY_DIR}/deb
  DEPENDS ${PROJECT_BINARY_DIR}/deb/changelog VERBATIM)
add_custom_target(rtc_changelog ALL DEPENDS ${PROJECT_BINARY_DIR}/deb/changelog.gz)
install(FILES ${PROJECT_BINARY_DIR}/deb/changelog.gz DESTINATION ${CMAKE_INSTALL_DOCDIR})
# The licence, Apache-2.0, as Debian asks it stated: doc/rtconform/copyright
# in the machine-readable format (DEP-5), which points to the full text in
# /usr/share/common-licenses rather than shipping LICENSE again.
install(FILES ${PROJECT_SOURCE_DIR}/cmake/deb/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME rtconform)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(RTC_PACKAGE_PREFIX /usr)
set(CPACK_PACKAGING_INSTALL_PREFIX ${RTC_PACKAGE_PREFIX})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "real-time latency conformance tests for Linux")
set(CPACK_PACKAGE_DESCRIPTION
  "rtconform measures latency and behaviour requirements declared in XML\n"
  "(semaphores, thread and process creation, timers, priority rules) on the\n"
  "machine it runs on, each in its own worker process under mlockall and the\n"
  "requested real-time policy, and reports a verdict per requirement in\n"
  "junit.xml, report.html, results.json and its exit status.")
string(REPLACE ";" "" CPACK_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${RTC_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
if(RTC_DEB_ARCH) # a cross build: the target's, not this machine's
  set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE ${RTC_DEB_ARCH})
endif()
# Runtime dependencies only, read from the binaries by dpkg-shlibdeps
# (libxml2, libjansson4, libc6); a static build has none but libc's.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# stress-ng: the <load> of a requirement; libcap2-bin: setcap, to let users
# without root measure (docs/install.md).
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "stress-ng, libcap2-bin")
# bash-completion loads the completion the package ships
# (cmake/docs-install.cmake); without it bash never reads that file.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "bash-completion")
# The postinst names the worker and the documentation where the package
# puts them. rtc_package_path(VAR PATH): PATH (an install destination) as
# the package installs it; an absolute destination stays as it is.
function(rtc_package_path var path)
  if(NOT IS_ABSOLUTE "${path}")
    set(path ${RTC_PACKAGE_PREFIX}/${path})
  endif()
  set(${var} ${path} PARENT_SCOPE)
endfunction()
rtc_package_path(RTC_INSTALLED_WORKER ${RTC_INSTALL_HELPERDIR}/rtconform-worker)
rtc_package_path(RTC_INSTALLED_DOC ${CMAKE_INSTALL_DOCDIR})
configure_file(${PROJECT_SOURCE_DIR}/cmake/deb/postinst.in ${PROJECT_BINARY_DIR}/deb/postinst
               @ONLY FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
               GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${PROJECT_BINARY_DIR}/deb/postinst)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_STRIP_FILES ON)
include(CPack)
