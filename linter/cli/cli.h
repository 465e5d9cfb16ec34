#ifndef SAGELINT_LINTER_CLI_CLI_H_
#define SAGELINT_LINTER_CLI_CLI_H_

namespace sagelint {

// Runs the command line; returns the exit status (0 clean, 1 findings, 2 usage/config error).
int RunCli(int argc, char** argv);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_CLI_CLI_H_
