// Running another program without a shell: argv as given, stdin fed from a
// string, stdout streamed to a callback, stderr collected.
#ifndef SAGELINT_LINTER_BASE_PROCESS_H_
#define SAGELINT_LINTER_BASE_PROCESS_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace sagelint {

struct ProcessResult {
  int exit_status = -1;  // the program's exit status; -1 if it did not exit normally
  std::string err;       // its standard error (the first 64 KiB)
};

// Runs `argv` (argv[0] looked up on PATH), writes `input` to its standard
// input, and passes its standard output to `on_output` chunk by chunk (a
// callback returning false stops reading and kills the program). Returns
// false with `error` set when the program cannot be started.
bool RunProcess(const std::vector<std::string>& argv, std::string_view input,
                const std::function<bool(std::string_view)>& on_output, ProcessResult* result, std::string* error);

// Convenience: the whole standard output in `out`.
bool RunProcess(const std::vector<std::string>& argv, std::string* out, ProcessResult* result, std::string* error);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_BASE_PROCESS_H_
