// Cross-file linking and derived attributes: scalable targets -> endpoint
// variants, lifecycle configurations -> notebooks, image URIs -> frameworks,
// Studio idle shutdown. The analyzer gathers a LinkIndex over the scan and
// applies it to the workloads a link decides something for.
#ifndef SAGELINT_LINTER_ENGINE_LINK_H_
#define SAGELINT_LINTER_ENGINE_LINK_H_

#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "linter/model/model.h"

namespace sagelint {

// What a link across the scan decides for a workload.
enum class LinkValue { kTrue, kUnknown, kFalse };
inline constexpr LinkValue kLinkValues[] = {LinkValue::kTrue, LinkValue::kUnknown, LinkValue::kFalse};
// The value a link sets, at `range`: "true", unknown or "false".
Val LinkVal(LinkValue v, SourceRange range);

// What the scalable targets and lifecycle scripts of a scan say, gathered
// without keeping the workloads: endpoint variants and notebook instances
// are linked against it.
class LinkIndex {
 public:
  // A scalable target or lifecycle script (other kinds add nothing). Scripts
  // are added in scan order: the first script with a key is the one it names;
  // the branches or instances of one conditional or repeated construct that
  // disagree make it unknown.
  void Add(const Workload& w);
  // The endpoints a notebook deletes for the other notebooks of its workflow
  // (FileResult::workflow_deletes of the notebook at `path`).
  void AddWorkflowDeletes(const std::string& path, const std::vector<std::string>& names);
  // What another part of the scan gathered, which comes after this one.
  void Merge(const LinkIndex& later);
  bool empty() const {
    return targeted_.empty() && unknown_target_scopes_.empty() && scripts_.empty() && workflow_deletes_.empty();
  }

  // Does an autoscaling target name the endpoint variant with these keys, complete and scope?
  LinkValue Autoscaling(const std::vector<std::string>& keys, bool complete, const std::string& scope) const;
  // Does the lifecycle script a notebook instance refers to stop it when idle?
  LinkValue IdleStop(const std::vector<std::string>& refs) const;
  // Does another notebook of the workflow `scope` than the one at `path`
  // delete the endpoint variant with these keys (by its name, or every
  // endpoint it lists)? kTrue or kFalse.
  LinkValue WorkflowDeletes(const std::vector<std::string>& keys, const std::string& scope,
                            const std::string& path) const;

 private:
  std::unordered_set<std::string> targeted_;
  std::unordered_set<std::string> unknown_target_scopes_;  // a target whose variant is unknown
  struct Script {
    LinkValue stops;        // stops idle instances?
    std::string construct;  // path + '\n' + the construct whose branch or instance it is; else empty
  };
  std::unordered_map<std::string, Script> scripts_;  // by key
  // workflow + '\n' + endpoint name ("*", "*PART": every listed one) -> the notebooks deleting it
  std::unordered_map<std::string, std::vector<std::string>> workflow_deletes_;
};

// A notebook's endpoint variant whose deletion another notebook of its
// workflow may decide: deployed by the notebook, and not deleted by it.
bool WorkflowDeleteLinked(const Workload& w);

// A notebook instance whose idle stop is decided by a link: its lifecycle
// configuration is named, unconditionally.
bool NotebookLinked(const Workload& w);

// What a workload derives from itself: the framework from its image URI, a
// Studio domain's idle shutdown.
void DeriveAttributes(Workload& w);

// The `deleted` value of a variant that another notebook of its workflow deletes.
Val WorkflowDeleted(const Workload& w);

// Sets what the index decides for an endpoint variant or a linked notebook instance.
void ApplyLinks(const LinkIndex& index, Workload& w);

// The framework a container image URI implies ("sklearn" for the SageMaker
// scikit-learn container), or empty.
std::string FrameworkFromImage(std::string_view image);

// True if a lifecycle script contains idle-stop logic.
bool HasIdleStopLogic(std::string_view script);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_LINK_H_
