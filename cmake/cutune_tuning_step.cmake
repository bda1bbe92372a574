# cutune_tuning_step.cmake - the build step cutune_add_tuning adds (cmake -P).
#
#   cmake -DCUTUNE_EXE=cutune -DCUTUNE_ARGS=args.cmake -P cutune_tuning_step.cmake
#
# args.cmake (written by cutune_add_tuning) sets CUTUNE_spec, CUTUNE_header,
# CUTUNE_results, CUTUNE_ARG_PREFIX, CUTUNE_ARG_SET, CUTUNE_ARG_MODE, CUTUNE_ARG_MODE_FROM
# and CUTUNE_work. The step writes the header by one of three paths and says which and why
# in one line starting "cutune: " (docs/cmake.md):
#   tune     a GPU is present: `cutune tune` into CUTUNE_work/results.json (resuming from
#            its journal), then `cutune emit header` from those results;
#   stored   `cutune emit header` from the stored results files that exist;
#   default  `cutune emit header --spec`: the spec's default configuration, not tuned.
# The environment variable CUTUNE_MODE (auto|tune|stored|default) overrides the mode.
# It also writes CUTUNE_work/header.d, a depfile naming the spec, the kernel and the
# headers it includes, and the stored results, as they are now.
cmake_minimum_required(VERSION 3.20)
include("${CUTUNE_ARGS}")
include("${CMAKE_CURRENT_LIST_DIR}/cutune_deps.cmake")

# _cutune_fail(TEXT...): prints TEXT as it is (CMake would re-wrap a FATAL_ERROR's text,
# splitting diagnostics and paths) and stops the build step.
function(_cutune_fail)
  string(CONCAT text ${ARGN})
  message("${text}")
  message(FATAL_ERROR "cutune: the tuning header was not made")
endfunction()

set(spec "${CUTUNE_spec}")
set(header "${CUTUNE_header}")
get_filename_component(header_name "${header}" NAME)
set(mode "${CUTUNE_ARG_MODE}")
set(forced "${CUTUNE_ARG_MODE_FROM}")
if(NOT "$ENV{CUTUNE_MODE}" STREQUAL "")
  set(mode "$ENV{CUTUNE_MODE}")
  set(forced "CUTUNE_MODE=$ENV{CUTUNE_MODE} in the environment")
endif()
if(NOT mode MATCHES "^(auto|tune|stored|default)$")
  _cutune_fail("cutune: the mode is auto, tune, stored or default, not '${mode}' (${forced})")
endif()
if(mode STREQUAL "auto")
  set(forced "")
endif()

set(set_args "")
foreach(s IN LISTS CUTUNE_ARG_SET)
  list(APPEND set_args --set "${s}")
endforeach()
set(emit_args --spec "${spec}" ${set_args})
if(CUTUNE_ARG_PREFIX)
  list(APPEND emit_args --prefix "${CUTUNE_ARG_PREFIX}")
endif()

# The dependencies, now: a spec that does not load stops here with its diagnostics.
_cutune_spec_dependencies(deps error "${CUTUNE_EXE}" "${spec}" "${CUTUNE_ARG_SET}")
if(error)
  _cutune_fail("cutune: ${spec} does not load:\n${error}")
endif()
set(stored "")
set(missing "")
foreach(r IN LISTS CUTUNE_results)
  if(EXISTS "${r}")
    list(APPEND stored "${r}")
    list(APPEND deps "${r}")
  else()
    list(APPEND missing "${r}")
  endif()
endforeach()
set(depfile_text "${header}:")
foreach(d IN LISTS deps)
  string(REPLACE " " "\\ " d "${d}")
  string(APPEND depfile_text " \\\n  ${d}")
endforeach()
file(WRITE "${CUTUNE_work}/header.d" "${depfile_text}\n")

# _cutune_emit(WHAT ARGS...): cutune emit header ARGS -o HEADER (through a temporary file,
# so a failed step leaves no half header); stops the build with cutune's message on failure.
function(_cutune_emit what)
  execute_process(COMMAND "${CUTUNE_EXE}" emit header ${ARGN} -o "${header}.tmp"
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    file(REMOVE "${header}.tmp")
    _cutune_fail("cutune: emitting ${header_name} from ${what} failed (exit ${rc}):\n${err}")
  endif()
  file(RENAME "${header}.tmp" "${header}")
endfunction()

# _cutune_describe(OUT FILE): "FILE (DEVICE, DATE)" from a results file's own record.
function(_cutune_describe out file)
  file(READ "${file}" json)
  string(JSON device ERROR_VARIABLE e1 GET "${json}" device name)
  string(JSON date ERROR_VARIABLE e2 GET "${json}" date)
  if(e1)
    set(device "device unknown")
  endif()
  if(e2)
    set(date "date unknown")
  endif()
  set(${out} "${file} (${device}, ${date})" PARENT_SCOPE)
endfunction()

# Is there a GPU? `cutune devices` exits 0 when the driver sees one, 4 (with why) when not.
set(gpu "")
set(no_gpu_reason "")
if(mode STREQUAL "auto" OR mode STREQUAL "tune")
  execute_process(COMMAND "${CUTUNE_EXE}" devices --format json
                  RESULT_VARIABLE rc OUTPUT_VARIABLE devices_json ERROR_VARIABLE devices_err)
  string(STRIP "${devices_err}" devices_err)
  string(REGEX REPLACE "^cutune devices: no GPU: " "" devices_err "${devices_err}")
  if(rc EQUAL 0)
    string(JSON gpu ERROR_VARIABLE e GET "${devices_json}" 0 name)
    if(e)
      set(gpu "GPU 0")
    endif()
  elseif(rc EQUAL 4)
    set(no_gpu_reason "${devices_err}")
  else()
    set(no_gpu_reason "cutune devices failed (exit ${rc}): ${devices_err}")
  endif()
  if(mode STREQUAL "tune" AND NOT gpu)
    _cutune_fail("cutune: ${forced} asks to tune, but there is no GPU (${no_gpu_reason})")
  endif()
endif()

# ---- tune ------------------------------------------------------------------------------
set(why "")
if(gpu)
  # One journal per content of the spec, kernel, headers and --set values: a build after
  # an interruption resumes it; a changed kernel starts a new one (the old ones go).
  set(identity "${CUTUNE_ARG_SET}")
  foreach(d IN LISTS deps)
    if(NOT d IN_LIST stored)
      file(SHA256 "${d}" h)
      string(APPEND identity ";${h}")
    endif()
  endforeach()
  string(SHA256 identity "${identity}")
  string(SUBSTRING "${identity}" 0 16 identity)
  set(results "${CUTUNE_work}/results.json")
  set(journal "${CUTUNE_work}/journal-${identity}.jsonl")
  file(GLOB old_journals "${CUTUNE_work}/journal-*.jsonl")
  list(REMOVE_ITEM old_journals "${journal}")
  if(old_journals)
    file(REMOVE ${old_journals})
  endif()
  file(REMOVE "${results}")
  message("cutune: tuning ${spec} on GPU 0 (${gpu}); results ${results}")
  set(fresh "")
  foreach(attempt 1 2)
    execute_process(COMMAND "${CUTUNE_EXE}" tune "${spec}" --color never --results "${results}"
                            --journal "${journal}" ${fresh} ${set_args}
                    RESULT_VARIABLE rc ERROR_VARIABLE err)
    message("${err}")
    # The same content on another device (the journal says another run): start afresh.
    if(rc EQUAL 0 OR NOT err MATCHES "belongs to another run")
      break()
    endif()
    set(fresh --fresh)
  endforeach()
  if(rc EQUAL 0 AND EXISTS "${results}")
    _cutune_emit("${results}" ${emit_args} "${results}")
    file(READ "${results}" json)
    string(JSON measured ERROR_VARIABLE e GET "${json}" summary variants)
    string(JSON resumed ERROR_VARIABLE e GET "${json}" summary resumed)
    if(NOT resumed MATCHES "^[0-9]+$")
      set(resumed 0)
    endif()
    message("cutune: tuned on GPU 0 (${gpu}) - ${header_name} from ${results} "
            "(${measured} variants, ${resumed} resumed from the journal)")
    return()
  elseif(rc EQUAL 130)
    _cutune_fail("cutune: tuning was interrupted; build again to resume from ${journal}")
  elseif(rc EQUAL 4 AND mode STREQUAL "auto")
    set(why "the GPU could not be used (cutune tune exit 4)")
  else()
    _cutune_fail("cutune: tuning ${spec} failed (exit ${rc}); see above")
  endif()
else()
  if(forced)
    set(why "${forced}")
  else()
    # The one-line summary keeps the reason short; the driver's details follow it.
    string(REGEX REPLACE " \\(.*\\)$" "" short_reason "${no_gpu_reason}")
    set(why "no GPU (${short_reason})")
    if(NOT short_reason STREQUAL no_gpu_reason)
      message("cutune: ${no_gpu_reason}")
    endif()
  endif()
endif()

# ---- stored results ------------------------------------------------------------------
if(mode STREQUAL "stored" AND NOT stored)
  if(missing)
    list(JOIN missing ", " missing)
    set(missing "${missing} does not exist")
  else()
    set(missing "no RESULTS given")
  endif()
  _cutune_fail("cutune: ${forced} asks for stored results, but there are none (${missing})")
endif()
if(stored AND NOT mode STREQUAL "default")
  _cutune_emit("${stored}" ${emit_args} ${stored})
  set(described "")
  foreach(r IN LISTS stored)
    _cutune_describe(d "${r}")
    list(APPEND described "${d}")
  endforeach()
  list(JOIN described ", " described)
  message("cutune: ${why} - ${header_name} from stored results ${described}")
  return()
endif()

# ---- the spec's default configuration -------------------------------------------------
_cutune_emit("the spec's default configuration" ${emit_args})
if(mode STREQUAL "default")
  set(none "")
elseif(missing)
  list(JOIN missing ", " missing)
  set(none " and no stored results (${missing} does not exist)")
else()
  set(none " and no stored results (none given)")
endif()
message("cutune: ${why}${none} - ${header_name} from the spec's default configuration (NOT TUNED)")
