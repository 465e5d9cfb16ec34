// The instance catalog (rules/data/instances.json): what kind of machine an
// `ml.*` instance type is.
#ifndef SAGELINT_LINTER_MODEL_CATALOG_H_
#define SAGELINT_LINTER_MODEL_CATALOG_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "linter/model/model.h"

namespace sagelint {

enum class Accelerator : std::uint8_t { kNone, kGpu, kInferentia, kTrainium, kGaudi, kElasticInference };
std::string_view AcceleratorName(Accelerator a);    // none|gpu|inferentia|trainium|gaudi|elastic_inference
std::string AcceleratorDisplayName(Accelerator a);  // "NVIDIA GPU", "AWS Inferentia", …

struct InstanceInfo {
  std::string family;  // "p3", "g4dn", "p6-b200"
  Accelerator accelerator = Accelerator::kNone;
  bool training_class = false;       // p2/p3/p4/p5/p6, trn: poor value for inference
  bool previous_generation = false;  // has a current successor
  std::string successor;             // "t3" for "t2"
  bool nvme = false;                 // local NVMe storage (fixed volume)
  // Filled when the catalog lists the size (rules/data/instances.json `sizes`).
  std::optional<int> vcpu;
  std::optional<double> memory_gib;
  std::optional<int> accelerator_count;  // GPUs, Inferentia/Trainium chips, Gaudi cards
  bool accelerated() const {
    return accelerator != Accelerator::kNone && accelerator != Accelerator::kElasticInference;
  }
};

// The family of an instance type: "ml.p3.2xlarge" -> "p3"; empty if the
// text is not an `ml.<family>.<size>` name.
std::string InstanceFamily(std::string_view instance_type);
// nullopt for a name that is not `ml.*` or whose family the catalog lacks.
std::optional<InstanceInfo> LookupInstance(std::string_view instance_type);
// Every family of the catalog (sizes not filled), sorted by family name.
std::vector<InstanceInfo> CatalogFamilies();
// True when the catalog knows the type: its family is listed and, for a family
// with a size table, so is its size. The driver reports an unknown type once
// instead of letting rules guess.
bool IsKnownInstanceType(std::string_view instance_type);
// SDK local mode ("local", "local_gpu"): not a cloud workload.
bool IsLocalMode(std::string_view instance_type);

// The instance type list (an enum of the SageMaker API) a kind of workload is
// checked against: rules/data/offered.json, generated from the botocore
// service model by scripts/update-offered-instances.py.
enum class OfferKind : std::uint8_t { kNotebook, kTraining, kProcessing, kTransform, kEndpoint, kStudioApp };
// nullopt for kinds without instances of their own (scalable targets,
// lifecycle scripts, IAM statements). Studio domains, user profiles and
// spaces give kStudioApp: their instance types are those of their apps.
std::optional<OfferKind> OfferKindFor(WorkloadKind kind);
// "notebook instances", "training jobs", "processing jobs", "batch transform
// jobs", "endpoint variants", "Studio apps".
std::string_view OfferKindDescription(OfferKind k);
// The API call that rejects a type outside the list: "CreateEndpointConfig".
std::string_view OfferKindAction(OfferKind k);
// True when the API accepts `instance_type` for `k`.
bool IsOffered(std::string_view instance_type, OfferKind k);
// Every type accepted for `k`, sorted.
const std::vector<std::string>& OfferedTypes(OfferKind k);
// Where the lists come from: "botocore 1.43.67 (2026-08-07), …".
const std::string& OfferedSource();

}  // namespace sagelint

#endif  // SAGELINT_LINTER_MODEL_CATALOG_H_
