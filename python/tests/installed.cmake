# SPDX-License-Identifier: MIT
# python.installed: installs the Python component into PREFIX and imports the package from
# PREFIX/DIR with a clean PYTHONPATH; it must read SAMPLE (a paddle-log) as the build tree does.
file(REMOVE_RECURSE ${PREFIX})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD} --prefix ${PREFIX} --component python
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install --component python failed: ${rc}")
endif()
set(ENV{PYTHONPATH} ${PREFIX}/${DIR})
execute_process(COMMAND ${PYTHON} -c "
import logscan, sys
assert logscan.__file__.startswith(sys.argv[1]), logscan.__file__
assert logscan.detect(sys.argv[2]) == 'paddle-log'
steps = logscan.frames(sys.argv[2], types='train_step')['train_step']
n = sum(1 for l in open(sys.argv[2], encoding='utf-8') if 'Epoch: [' in l and 'loss:' in l)
assert len(steps) == n, (len(steps), n)
print('installed package at', logscan.__file__, 'reads', n, 'training steps')
" ${PREFIX}/${DIR} ${SAMPLE} WORKING_DIRECTORY ${PREFIX} RESULT_VARIABLE rc)  # (not the build tree: -c puts the working directory first on sys.path)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the installed package failed: ${rc}")
endif()
