# Writes the man page and the shell completion scripts into OUT (a share/
# tree) by running the built binary: `sagelint manpage` and
# `sagelint completion SHELL` render them from the help text and the rule table.
# Usage: cmake -DBIN=path/to/sagelint -DOUT=build/share -P generate-docs.cmake
foreach(pair
    "man/man1/sagelint.1|manpage"
    "bash-completion/completions/sagelint|completion;bash"
    "zsh/site-functions/_sagelint|completion;zsh"
    "fish/vendor_completions.d/sagelint.fish|completion;fish")
  string(FIND "${pair}" "|" bar)
  string(SUBSTRING "${pair}" 0 ${bar} rel)
  math(EXPR after "${bar} + 1")
  string(SUBSTRING "${pair}" ${after} -1 args)
  get_filename_component(dir "${OUT}/${rel}" DIRECTORY)
  file(MAKE_DIRECTORY "${dir}")
  execute_process(COMMAND "${BIN}" ${args}
                  OUTPUT_FILE "${OUT}/${rel}.tmp" ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "sagelint ${args} failed (${rc}): ${err}")
  endif()
  file(RENAME "${OUT}/${rel}.tmp" "${OUT}/${rel}")
endforeach()
