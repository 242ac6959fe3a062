# The modules of rtconform and the only ways they may depend on each other.
#
# This is the one place the allowed edges are written. rtc_module() makes a
# module's static library from the sources of its folder, links it to the
# modules it names (and nothing else of ours), and records the edge list in
# ${PROJECT_BINARY_DIR}/modules.txt, which the test `layers` reads to check
# that no source file includes a header from a module it may not use
# (tests/check_layers.py). Edges are transitive: a module may use what its
# dependencies may use.
#
# The pipeline reads top to bottom: requirements are loaded and validated,
# the harness runs them in workers, the reports render the results (and a
# run's results.json is read back), compare and merge work across runs, and
# the command line ties the stages together.
#
#   module        folder             may use              why
#   base          base/              (nothing)            units, diagnostics, sha256, number
#                                                         formatting, shell quoting, safe XML
#                                                         reading, probe declarations: basics
#                                                         every stage shares
#   host          host/              base                 reads the machine (/proc, /sys, tools)
#                                                         into typed facts, the fingerprint and
#                                                         readiness; knows nothing of a run
#   requirements  requirements/      base                 model, loader, schema, validation
#                                                         (against a probe catalogue it is given),
#                                                         shipped profiles
#   measure       harness/measure/   base                 what runs in the worker: timebase,
#                                                         histogram, probe interface, real-time
#                                                         set-up, probes; never sees the
#                                                         requirements model (the worker is a
#                                                         small exec'd binary of its own)
#   harness       harness/           requirements,        runs a requirement in a worker:
#                                    measure, host        prepare, spawn, supervise, classify,
#                                                         verdicts, background load, run info
#   reports       reports/           harness              renders one run's report view:
#                                                         junit.xml, report.html, results.json,
#                                                         summary.txt, CSV, LAVA; measures,
#                                                         inspects and reads nothing
#   read          reports/read/      reports              reads a results.json back into a view
#                                                         (the only reader; junit.xml is never
#                                                         read back); a module of its own so the
#                                                         writers cannot read
#   across        across/            reports              the commands across runs: compare
#                                                         (compare.c, its reports) and merge
#                                                         (merge.c, fleet.html); given views,
#                                                         they never read a file themselves
#   cli           cli/               across, read         the command line: the only module that
#                                                         may use every other one
#
# docs/architecture.md's module table lists the same modules, folders and
# edges; the test `layers` checks that too.

set(RTC_MODULES_FILE ${PROJECT_BINARY_DIR}/modules.txt)
file(WRITE ${RTC_MODULES_FILE} "# module folder dependencies... (written by cmake/modules.cmake)\n")

# rtc_module(NAME FOLDER [DEPS module...] [SOURCES file...] [LIBS target...])
# SOURCES default to every .c in FOLDER (not below it).
function(rtc_module name folder)
  cmake_parse_arguments(M "" "" "DEPS;SOURCES;LIBS" ${ARGN})
  if(NOT M_SOURCES)
    file(GLOB M_SOURCES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${folder}/*.c)
  endif()
  add_library(rtc_${name} STATIC ${M_SOURCES})
  target_include_directories(rtc_${name} PUBLIC ${PROJECT_SOURCE_DIR})
  foreach(d ${M_DEPS})
    target_link_libraries(rtc_${name} PUBLIC rtc_${d})
  endforeach()
  if(M_LIBS)
    target_link_libraries(rtc_${name} PUBLIC ${M_LIBS})
  endif()
  string(REPLACE ";" " " deps "${M_DEPS}")
  file(APPEND ${RTC_MODULES_FILE} "${name} ${folder} ${deps}\n")
endfunction()
