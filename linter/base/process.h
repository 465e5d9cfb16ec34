// Running another program without a shell: argv as given, stdin fed from a
// string, stdout streamed to a callback, stderr collected.
#ifndef SAGELINT_LINTER_BASE_PROCESS_H_
#define SAGELINT_LINTER_BASE_PROCESS_H_

#include <cstdint>
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

// A program kept running to answer requests one at a time (`git cat-file
// --batch`): what is written to its standard input is answered on its
// standard output. Its standard error is collected, not shown. Writing to a
// program that has ended fails instead of raising SIGPIPE. The program is
// stopped (its pipes closed, then waited for) by Stop() or the destructor.
class Coprocess {
 public:
  Coprocess() = default;
  ~Coprocess();
  Coprocess(const Coprocess&) = delete;
  Coprocess& operator=(const Coprocess&) = delete;

  // Runs `argv` (argv[0] looked up on PATH) with sagelint's environment plus
  // `env` ("NAME=VALUE", replacing a variable of that name). False with `error`.
  bool Start(const std::vector<std::string>& argv, const std::vector<std::string>& env, std::string* error);
  bool running() const { return pid_ > 0; }
  // Writes all of `data`; false if the program has ended or closed its input.
  bool Write(std::string_view data);
  // The next line of output without its newline; false at the end of the
  // output or when the line is longer than `max` bytes.
  bool ReadLine(std::string* line, size_t max);
  // The next `n` bytes of output, appended to `out` (nullptr: read and dropped);
  // false at the end of the output.
  bool Read(std::uint64_t n, std::string* out);
  // Closes the pipes and waits for the program; its exit status (-1 if it did not exit normally).
  int Stop();
  // The first 64 KiB it wrote to standard error.
  const std::string& err() const { return err_; }

 private:
  bool Fill();  // more output into buf_ (standard error drained meanwhile); false at the end
  int pid_ = -1;
  int in_ = -1, out_ = -1, errfd_ = -1;
  std::string buf_;
  size_t pos_ = 0;
  std::string err_;
};

}  // namespace sagelint

#endif  // SAGELINT_LINTER_BASE_PROCESS_H_
