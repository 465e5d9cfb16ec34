#include "linter/cli.h"

#include <cstdio>
#include <cstring>

namespace sagelint {

int RunCli(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--version") == 0) {
    std::printf("sagelint %s\n", SAGELINT_VERSION);
    return 0;
  }
  std::fprintf(stderr, "sagelint: the scan command is being assembled\n");
  return 2;
}

}  // namespace sagelint
