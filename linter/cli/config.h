// `.sagelint.yaml`: strict loading (an unknown key, a bad value or an unknown
// rule ID is an error naming the key and its line).
#ifndef SAGELINT_LINTER_CLI_CONFIG_H_
#define SAGELINT_LINTER_CLI_CONFIG_H_

#include <yaml-cpp/yaml.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "linter/base/file_source.h"
#include "linter/engine/rule_set.h"
#include "linter/model/finding.h"

namespace sagelint {

// --fail-on / fail_on: the lowest severity that makes the exit status 1.
enum class FailOn { kNote, kWarning, kError, kNone };
std::optional<FailOn> FailOnFromName(std::string_view name);
bool FailsOn(FailOn level, Severity s);
// The lowest severity that fails at `level`; nullopt for `none`.
std::optional<Severity> FailThreshold(FailOn level);

struct Config {
  std::string path;  // the file it came from; empty when none was found
  std::string dir;   // its directory (exclude patterns and relative files resolve here)
  std::optional<FailOn> fail_on;
  std::vector<std::string> exclude;
  std::string region = "us-east-1";
  std::string prices;  // price file, relative to `dir` unless absolute
  std::map<std::string, RuleSetting> rules;
  std::map<std::string, std::string> datasets;  // S3 prefix -> size text ("1.2TB")
  std::map<std::string, std::string> parameters;
  // CloudFormation template configuration files: template glob (relative to
  // `dir`) -> files (relative to each template's directory).
  std::vector<std::pair<std::string, std::vector<std::string>>> parameter_files;
  std::map<std::string, std::string> variables;
  YAML::Node policies;                    // the `policies:` list, validated by linter/policy
  std::vector<std::string> policy_files;  // files holding more `policies:` lists
  std::string baseline;                   // baseline file (as --baseline), relative to `dir` unless absolute
  // Where settings are written (1-based lines), for findings about the
  // configuration itself (SM006): "fail_on", "exclude", "exclude:PATTERN",
  // "rules", "rules.ID", "policies", "policy_files".
  std::map<std::string, int> lines;
};

struct ConfigError {
  std::string message;  // "<file>:<line>: <what>"
};

// Loads and validates a config file. Returns nullopt and sets `error` on failure.
std::optional<Config> LoadConfig(const std::string& path, ConfigError* error, const FileSource& files = DiskFiles());
// Loads from text (tests); `path` is used in messages.
std::optional<Config> ParseConfig(const std::string& text, const std::string& path, ConfigError* error);

// The configuration of the scan root of `start` (a file or directory; the git
// work tree containing it, else the directory itself): its `.sagelint.yaml`
// (or `.sagelint.yml`); empty if none. One per scan root: a configuration in
// a directory below the root is not read, and the current directory plays no part.
std::string FindConfig(const std::string& start, const FileSource& files = DiskFiles());

}  // namespace sagelint

#endif  // SAGELINT_LINTER_CLI_CONFIG_H_
