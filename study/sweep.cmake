# resource-query-sweep (docs/study.md "The sweep"): a Python 3 program (stdlib;
# PyYAML for YAML grids) and its modules. The build tree mirrors an install:
# build/bin/resource-query-sweep, modules in build/share/resource-query/study
# (the program looks beside itself, then in ../share/resource-query/study).
set(RQ_SWEEP_MODULES sweep_batch.py sweep_cell.py sweep_grid.py sweep_local.py sweep_merge.py)
set(RQ_SWEEP_BUILD_FILES ${CMAKE_BINARY_DIR}/bin/resource-query-sweep)
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/bin/resource-query-sweep
                   COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_SOURCE_DIR}/study/sweep.py
                           ${CMAKE_BINARY_DIR}/bin/resource-query-sweep
                   DEPENDS ${CMAKE_SOURCE_DIR}/study/sweep.py VERBATIM)
foreach(module ${RQ_SWEEP_MODULES})
  set(copy ${CMAKE_BINARY_DIR}/${RQ_DATA_SUBDIR}/study/${module})
  add_custom_command(OUTPUT ${copy}
                     COMMAND ${CMAKE_COMMAND} -E copy ${CMAKE_SOURCE_DIR}/study/${module} ${copy}
                     DEPENDS ${CMAKE_SOURCE_DIR}/study/${module} VERBATIM)
  list(APPEND RQ_SWEEP_BUILD_FILES ${copy})
endforeach()
add_custom_target(sweep ALL DEPENDS ${RQ_SWEEP_BUILD_FILES})

install(PROGRAMS ${CMAKE_SOURCE_DIR}/study/sweep.py DESTINATION bin RENAME resource-query-sweep)
list(TRANSFORM RQ_SWEEP_MODULES PREPEND ${CMAKE_SOURCE_DIR}/study/ OUTPUT_VARIABLE RQ_SWEEP_SOURCES)
install(FILES ${RQ_SWEEP_SOURCES} DESTINATION ${RQ_DATA_SUBDIR}/study)

# Tests: grid expansion, merge and resume (unittest, Debian's Python), and
# a sweep as a job array on a real single-node Slurm started by the test.
add_test(NAME study.sweep
         COMMAND /usr/bin/python3 ${CMAKE_SOURCE_DIR}/study/sweep_test.py)
# No __pycache__ written into the source tree.
set_tests_properties(study.sweep PROPERTIES LABELS study
                     ENVIRONMENT "RQ_BIN_DIR=${CMAKE_BINARY_DIR}/bin;PYTHONDONTWRITEBYTECODE=1")
add_test(NAME study.sweep_slurm
         COMMAND sh ${CMAKE_SOURCE_DIR}/t/study/sweep_slurm.sh ${CMAKE_BINARY_DIR}/bin ${CMAKE_SOURCE_DIR})
set_tests_properties(study.sweep_slurm PROPERTIES LABELS study SKIP_RETURN_CODE 77 TIMEOUT 420)
