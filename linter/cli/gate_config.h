// SM006 gate-config-weakened (the rule docs, rules/SMxxx.md, §9): in `diff`, how the change edits
// the configuration the gate runs under — the configuration file, its custom
// policies and the baseline — judged against the base revision's.
#ifndef SAGELINT_LINTER_CLI_GATE_CONFIG_H_
#define SAGELINT_LINTER_CLI_GATE_CONFIG_H_

#include <optional>
#include <string>
#include <vector>

#include "linter/cli/config.h"
#include "linter/engine/baseline.h"
#include "linter/model/finding.h"
#include "linter/policy/policy.h"

namespace sagelint {

// One side's gate: its configuration (path empty: none), custom policies and
// baseline (as read; text for the lines of its entries).
struct GateConfig {
  Config config;
  std::vector<Policy> policies;
  std::string baseline_path;  // as displayed; empty without --baseline
  std::optional<Baseline> baseline;
  std::string baseline_text;
};

// The SM006 findings of the change from `base` to `head`: an error for each
// weakening, a note for each tightening and for adopting a configuration.
// `top` is the work tree's top (the findings' root paths are relative to it).
std::vector<Finding> GateConfigChanges(const GateConfig& base, const GateConfig& head, const std::string& top);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_CLI_GATE_CONFIG_H_
