# cutune_add_tuning.cmake - a build step that makes a kernel's best-configuration header.
#
#   cutune_add_tuning(TARGET tgt SPEC file.tune HEADER out.h
#                     [RESULTS stored.json...] [PREFIX P] [SET NAME=VALUE...]
#                     [MODE auto|tune|stored|default] [DEVICE N] [KERNEL NAME])
#
# Adds a custom command that writes HEADER at build time (cmake -P cutune_tuning_step.cmake)
# and makes `tgt` depend on it and see its folder as an include directory. What the step
# does (docs/cmake.md):
#   tune     a GPU is present (`cutune devices`): tune the spec on GPU DEVICE (default 0),
#            resuming from the
#            journal and the compile cache in the build tree, and emit the winner;
#   stored   no GPU: emit the winner of the stored RESULTS committed with the project;
#   default  no GPU and no stored results: emit the spec's default configuration
#            (P_TUNED 0).
# KERNEL picks one kernel block of a spec file that holds several (the header is that
# kernel's; one call per kernel). MODE auto (the default) picks in that order; the others force one path. The CMake
# variable CUTUNE_MODE (configure time) and the environment variable CUTUNE_MODE (build
# time) override MODE, so both paths can be tried on a GPU machine.
#
# Relative paths: SPEC and RESULTS against the current source folder, HEADER against the
# current binary folder. The header depends on the spec, the kernel file and every file
# its #include lines reach (learned now from `cutune check --format json` and `cutune list`,
# and again by the step itself through a depfile), the stored results, and the cutune
# command; the spec is a configure dependency, so a changed `from` is relearned.

cmake_policy(PUSH)
cmake_policy(VERSION 3.20)
set_property(GLOBAL PROPERTY CUTUNE_TUNING_STEP_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/cutune_tuning_step.cmake")
set_property(GLOBAL PROPERTY CUTUNE_DEPS_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/cutune_deps.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/cutune_deps.cmake")
# The function keeps the policies in force where it is defined (3.20: CMP0116, depfile
# paths as written by the step), whatever version the calling project asks for.

# cutune_add_tuning: see the top of this file. Fails configuration (FATAL_ERROR) on bad
# arguments, when the cutune command cannot be found, or when the spec does not load.
function(cutune_add_tuning)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "TARGET;SPEC;HEADER;PREFIX;MODE;DEVICE;KERNEL" "RESULTS;SET")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "cutune_add_tuning: unexpected arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  foreach(required TARGET SPEC HEADER)
    if(NOT ARG_${required})
      message(FATAL_ERROR "cutune_add_tuning: ${required} is required")
    endif()
  endforeach()
  if(NOT TARGET ${ARG_TARGET})
    message(FATAL_ERROR "cutune_add_tuning: no target named '${ARG_TARGET}' (create it first)")
  endif()
  set(ARG_MODE_FROM "")
  if(ARG_MODE)
    set(ARG_MODE_FROM "MODE ${ARG_MODE}")
  else()
    set(ARG_MODE auto)
  endif()
  if(DEFINED CUTUNE_MODE AND NOT CUTUNE_MODE STREQUAL "")
    set(ARG_MODE "${CUTUNE_MODE}")
    set(ARG_MODE_FROM "CUTUNE_MODE=${CUTUNE_MODE} (CMake variable)")
  endif()
  if(NOT ARG_MODE MATCHES "^(auto|tune|stored|default)$")
    message(FATAL_ERROR "cutune_add_tuning: MODE is auto, tune, stored or default, not '${ARG_MODE}'")
  endif()
  if(NOT DEFINED ARG_DEVICE)
    set(ARG_DEVICE 0)
  elseif(NOT ARG_DEVICE MATCHES "^[0-9]+$")
    message(FATAL_ERROR "cutune_add_tuning: DEVICE is a GPU ordinal (0, 1, ...), not '${ARG_DEVICE}'")
  endif()

  # The cutune command: the imported cutune::cli of an install, or the one built in-tree.
  if(NOT TARGET cutune::cli)
    message(FATAL_ERROR "cutune_add_tuning: no cutune::cli target: call find_package(cutune) first")
  endif()
  get_target_property(imported cutune::cli IMPORTED)
  if(imported)
    get_target_property(cutune_exe cutune::cli LOCATION)
    set(cutune_dep "${cutune_exe}")
  else()
    set(cutune_exe "$<TARGET_FILE:cutune::cli>")
    set(cutune_dep cutune::cli)
  endif()

  get_filename_component(spec "${ARG_SPEC}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  get_filename_component(header "${ARG_HEADER}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  get_filename_component(header_dir "${header}" DIRECTORY)
  get_filename_component(header_name "${header}" NAME_WE)
  if(NOT EXISTS "${spec}")
    message(FATAL_ERROR "cutune_add_tuning: spec '${spec}' does not exist")
  endif()
  set(results "")
  foreach(r IN LISTS ARG_RESULTS)
    get_filename_component(r "${r}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND results "${r}")
  endforeach()
  set(work "${CMAKE_CURRENT_BINARY_DIR}/cutune/${ARG_TARGET}-${header_name}")
  file(MAKE_DIRECTORY "${work}" "${header_dir}")

  # What the header depends on, learned now (the step learns it again at build time).
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${spec}")
  if(imported)
    set(kernel_args "")
    if(ARG_KERNEL)
      set(kernel_args --kernel "${ARG_KERNEL}")
    endif()
    _cutune_spec_dependencies(deps error "${cutune_exe}" "${spec}" "${ARG_SET}" ${kernel_args})
    if(error_usage)
      message(FATAL_ERROR "cutune_add_tuning: ${error}")
    elseif(error)
      message("${error}") # as cutune printed it: a FATAL_ERROR's text would be re-wrapped
      message(FATAL_ERROR "cutune_add_tuning: the spec ${ARG_SPEC} does not load (above)")
    endif()
  else()
    set(deps "${spec}") # in-tree: cutune is not built yet; the depfile supplies the rest
  endif()
  foreach(r IN LISTS results)
    if(EXISTS "${r}")
      list(APPEND deps "${r}") # a results file added later needs a reconfigure to count
    endif()
  endforeach()

  # The step's arguments in a file rewritten only when they change, so a changed SET,
  # PREFIX, RESULTS or MODE reruns the step and an unchanged reconfigure does not.
  set(args_file "${work}/args.cmake")
  set(content "")
  foreach(var spec header results ARG_PREFIX ARG_SET ARG_MODE ARG_MODE_FROM ARG_DEVICE ARG_KERNEL work)
    string(REPLACE "\\" "\\\\" value "${${var}}")
    string(REPLACE "\"" "\\\"" value "${value}")
    string(REPLACE "$" "\\$" value "${value}")
    string(APPEND content "set(CUTUNE_${var} \"${value}\")\n")
  endforeach()
  file(CONFIGURE OUTPUT "${args_file}" CONTENT "${content}")

  get_property(step GLOBAL PROPERTY CUTUNE_TUNING_STEP_SCRIPT)
  get_property(deps_script GLOBAL PROPERTY CUTUNE_DEPS_SCRIPT)
  file(RELATIVE_PATH header_rel "${CMAKE_BINARY_DIR}" "${header}")
  add_custom_command(OUTPUT "${header}"
    COMMAND "${CMAKE_COMMAND}" "-DCUTUNE_EXE=${cutune_exe}" "-DCUTUNE_ARGS=${args_file}" -P "${step}"
    DEPENDS ${deps} "${args_file}" "${step}" "${deps_script}" ${cutune_dep}
    DEPFILE "${work}/header.d"
    COMMENT "cutune: ${header_rel} from ${ARG_SPEC}"
    USES_TERMINAL # Ninja's console pool: one tuning step at a time, its output live
    VERBATIM)
  set(step_target "${ARG_TARGET}_cutune_${header_name}")
  add_custom_target(${step_target} DEPENDS "${header}")
  add_dependencies(${ARG_TARGET} ${step_target})
  target_include_directories(${ARG_TARGET} PRIVATE "${header_dir}")
endfunction()
cmake_policy(POP)
