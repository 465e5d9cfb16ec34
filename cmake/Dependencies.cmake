# Every external library sagelint needs, found one way for all supported
# distributions. The rest of the build links only these names:
#
#   sagelint::yaml-cpp   yaml-cpp 0.7 (target `yaml-cpp`) or 0.8 (`yaml-cpp::yaml-cpp`): configuration
#                        and policy files
#   sagelint::libyaml    libyaml 0.2 (pkg-config `yaml-0.1`): templates and other YAML/JSON input, which
#                        it reads about 15 times as fast as yaml-cpp
#   sagelint::re2        RE2 from its CMake package or pkg-config, with abseil when RE2 needs it
#   sagelint::json       nlohmann_json 3.10 or newer
#   sagelint::catch2     Catch2 2 or 3 with its main(); SAGELINT_CATCH2_MAJOR tells tests/catch.h which,
#                        and SAGELINT_CATCH2_STRICT_ARGS makes a run that selects no test case fail
#
# With SAGELINT_STATIC=ON the libraries are taken from their static archives
# through `pkg-config --static` and the binary is linked with -static
# (scripts/build-static.sh). With SAGELINT_STATIC_DEPS=ON only yaml-cpp, libyaml
# and RE2 (with abseil) come from their archives, named by full path so that a
# shared library beside an archive is never chosen, while the C and C++ runtimes
# stay the system's: the macOS release binary (scripts/build-macos.sh), which
# must run on a Mac with nothing installed, where -static does not exist.

find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)

# An INTERFACE library named sagelint_dep_<name>, aliased to sagelint::<name>.
function(sagelint_dependency name)
  add_library(sagelint_dep_${name} INTERFACE)
  target_link_libraries(sagelint_dep_${name} INTERFACE ${ARGN})
  add_library(sagelint::${name} ALIAS sagelint_dep_${name})
endfunction()

# A pkg-config module linked from its static archives (and those of its
# Requires/Requires.private), for the fully static build.
function(sagelint_static_pkg name module)
  pkg_check_modules(SGL_STATIC_${name} REQUIRED ${module})
  add_library(sagelint_dep_${name} INTERFACE)
  target_include_directories(sagelint_dep_${name} SYSTEM INTERFACE ${SGL_STATIC_${name}_STATIC_INCLUDE_DIRS})
  target_compile_options(sagelint_dep_${name} INTERFACE ${SGL_STATIC_${name}_STATIC_CFLAGS_OTHER})
  target_link_libraries(sagelint_dep_${name} INTERFACE ${SGL_STATIC_${name}_STATIC_LDFLAGS})
  add_library(sagelint::${name} ALIAS sagelint_dep_${name})
  message(STATUS "${module} ${SGL_STATIC_${name}_VERSION} (static): ${SGL_STATIC_${name}_STATIC_LDFLAGS}")
endfunction()

# --- nlohmann_json (header-only) -------------------------------------------
find_package(nlohmann_json 3.10 CONFIG QUIET)
if(nlohmann_json_FOUND)
  sagelint_dependency(json nlohmann_json::nlohmann_json)
else()
  pkg_check_modules(NLOHMANN_JSON REQUIRED IMPORTED_TARGET "nlohmann_json>=3.10")
  sagelint_dependency(json PkgConfig::NLOHMANN_JSON)
endif()

# A pkg-config module linked from the static archives of its libraries (full
# paths), the system's own libraries (pthread, m, …) left to the linker.
function(sagelint_archive_pkg name module)
  pkg_check_modules(SGL_ARCHIVE_${name} REQUIRED ${module})
  set(libs "")
  foreach(flag IN LISTS SGL_ARCHIVE_${name}_STATIC_LDFLAGS)
    if(flag MATCHES "^-l(.+)$")
      set(lib "${CMAKE_MATCH_1}")
      if(lib MATCHES "^(pthread|m|c|dl|rt|c\\+\\+|stdc\\+\\+)$")
        list(APPEND libs "${flag}")
        continue()
      endif()
      find_library(SGL_ARCHIVE_${lib} NAMES "lib${lib}.a" NO_CACHE
                   HINTS ${SGL_ARCHIVE_${name}_STATIC_LIBRARY_DIRS})
      if(NOT SGL_ARCHIVE_${lib})
        message(FATAL_ERROR "SAGELINT_STATIC_DEPS: no static archive lib${lib}.a for ${module} "
                            "(searched ${SGL_ARCHIVE_${name}_STATIC_LIBRARY_DIRS} and the system's paths)")
      endif()
      list(APPEND libs "${SGL_ARCHIVE_${lib}}")
    elseif(NOT flag MATCHES "^-L")
      list(APPEND libs "${flag}")
    endif()
  endforeach()
  add_library(sagelint_dep_${name} INTERFACE)
  # The headers are the same as a shared build's: only the link differs.
  target_include_directories(sagelint_dep_${name} SYSTEM INTERFACE ${SGL_ARCHIVE_${name}_INCLUDE_DIRS})
  target_compile_options(sagelint_dep_${name} INTERFACE ${SGL_ARCHIVE_${name}_CFLAGS_OTHER})
  target_link_libraries(sagelint_dep_${name} INTERFACE ${libs})
  add_library(sagelint::${name} ALIAS sagelint_dep_${name})
  message(STATUS "${module} ${SGL_ARCHIVE_${name}_VERSION} (archives): ${libs}")
endfunction()

if(SAGELINT_STATIC_DEPS AND NOT SAGELINT_STATIC)
  sagelint_archive_pkg(yaml-cpp yaml-cpp)
  sagelint_archive_pkg(libyaml yaml-0.1)
  sagelint_archive_pkg(re2 re2)
elseif(SAGELINT_STATIC)
  # -static: libc, libstdc++ and every library below come from archives.
  sagelint_static_pkg(yaml-cpp yaml-cpp)
  sagelint_static_pkg(libyaml yaml-0.1)
  sagelint_static_pkg(re2 re2)
  add_link_options(-static)
else()
  # --- yaml-cpp ------------------------------------------------------------
  find_package(yaml-cpp CONFIG QUIET)
  if(TARGET yaml-cpp::yaml-cpp)          # 0.8 and later
    sagelint_dependency(yaml-cpp yaml-cpp::yaml-cpp)
  elseif(TARGET yaml-cpp)                # 0.7
    sagelint_dependency(yaml-cpp yaml-cpp)
  else()                                 # installed without its CMake package
    pkg_check_modules(YAML_CPP REQUIRED IMPORTED_TARGET yaml-cpp)
    sagelint_dependency(yaml-cpp PkgConfig::YAML_CPP)
  endif()
  message(STATUS "yaml-cpp ${yaml-cpp_VERSION}${YAML_CPP_VERSION}")

  # --- libyaml -------------------------------------------------------------
  pkg_check_modules(LIBYAML REQUIRED IMPORTED_TARGET "yaml-0.1>=0.2")
  sagelint_dependency(libyaml PkgConfig::LIBYAML)
  message(STATUS "libyaml ${LIBYAML_VERSION}")

  # --- RE2 -----------------------------------------------------------------
  # RE2's CMake package (newer upstream installs, Homebrew) brings abseil in
  # through find_dependency; Debian's libre2-dev has only a pkg-config file,
  # whose Requires name the abseil modules when this RE2 needs them.
  find_package(re2 CONFIG QUIET)
  if(TARGET re2::re2)
    sagelint_dependency(re2 re2::re2)
    message(STATUS "RE2 ${re2_VERSION} (CMake package)")
  else()
    pkg_check_modules(RE2 REQUIRED IMPORTED_TARGET re2)
    sagelint_dependency(re2 PkgConfig::RE2)
    message(STATUS "RE2 ${RE2_VERSION} (pkg-config)")
  endif()
endif()

# --- Catch2 (tests only) -----------------------------------------------------
if(SAGELINT_TESTS)
  find_package(Catch2 CONFIG REQUIRED)
  if(Catch2_VERSION VERSION_LESS 2.13 OR Catch2_VERSION VERSION_GREATER_EQUAL 4)
    message(FATAL_ERROR "Catch2 ${Catch2_VERSION} found; sagelint's tests need Catch2 2.13+ or 3.x")
  endif()
  string(REGEX MATCH "^[0-9]+" SAGELINT_CATCH2_MAJOR "${Catch2_VERSION}")
  sagelint_dependency(catch2 Catch2::Catch2WithMain)
  target_compile_definitions(sagelint_dep_catch2 INTERFACE SAGELINT_CATCH2_MAJOR=${SAGELINT_CATCH2_MAJOR})
  # A test name that selects nothing must fail: Catch2 3 does so by itself,
  # Catch2 2 passes empty unless told to warn (and knows no other spelling).
  if(SAGELINT_CATCH2_MAJOR LESS 3)
    set(SAGELINT_CATCH2_STRICT_ARGS --warn NoTests)
  else()
    set(SAGELINT_CATCH2_STRICT_ARGS "")
  endif()
  message(STATUS "Catch2 ${Catch2_VERSION}")
endif()
