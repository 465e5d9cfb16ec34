// One source construct, one finding per rule (README "Usage"). A construct that makes
// several workloads — a Terraform resource with count or for_each, a
// CloudFormation resource whose whole Properties are conditional, a setting
// several workloads share (an SDK v3 Compute) — gives each of them the same
// finding at the same place; a reader wants that once.
#ifndef SAGELINT_LINTER_ENGINE_GROUP_H_
#define SAGELINT_LINTER_ENGINE_GROUP_H_

#include <vector>

#include "linter/model/finding.h"

namespace sagelint {

// The findings of one file with those of one construct merged, in the order
// of each group's first finding:
// - the same finding of several instances is one finding naming them all
//   (`aws_x.lab["ana","bo"]` (2 instances)) with the cost of all of them;
// - the same finding of every branch of a conditional resource is one
//   finding without the branches' conditions, with the costliest branch's
//   cost (a finding of only some branches keeps its condition);
// - the same finding of different workloads at one shared setting is one
//   finding naming the first workload and the others after it, with the cost
//   of all of them;
// - exact duplicates are one finding.
// "The same" is: rule, severity, place, offending value, the condition beyond
// the branch's own, and message and suggestion apart from the workload's name.
std::vector<Finding> GroupConstructFindings(std::vector<Finding> findings);

// The findings of a scan (sorted) with those a Terraform module gives through
// several `module` calls merged: the same finding at the same place of the
// module's file, one per call, is one finding naming the callers
// (`… (module calls in a/main.tf, b/main.tf)`) with the cost of all of them.
// Findings in different files stay apart. The order is kept.
std::vector<Finding> MergeModuleCalls(std::vector<Finding> findings);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_GROUP_H_
