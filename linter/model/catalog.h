// The instance catalog: what kind of machine an `ml.*` instance type is
// (rules/data/instances.json) and, for accelerated types, what accelerators it
// carries (rules/data/accelerators.json, one sourced row per offered type).
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
  bool training_class = false;          // p2/p3/p4/p5/p6, trn: poor value for inference
  bool inference_class = false;         // g4dn/g5/g6/g6e/g7/g7e, inf1/inf2: built for serving
  bool previous_generation = false;     // has a current successor
  std::vector<std::string> successors;  // {"t3"} for "t2", {"g4dn", "g5"} for "p2"
  bool nvme = false;                    // local NVMe storage (fixed volume)
  // Filled when the catalog lists the size (instances.json `sizes`, or the
  // accelerator table for an accelerated type).
  std::optional<int> vcpu;
  std::optional<double> memory_gib;
  std::optional<int> accelerator_count;  // GPUs, Inferentia/Trainium chips, Gaudi cards
  // Accelerated types only (rules/data/accelerators.json): the accelerator's
  // name and the memory of one, in GiB on the table's single basis.
  std::string accelerator_name;  // "NVIDIA V100"
  std::optional<double> accelerator_memory_gib;
  bool accelerated() const {
    return accelerator != Accelerator::kNone && accelerator != Accelerator::kElasticInference;
  }
  // The memory of all accelerators together: what a model must fit in.
  std::optional<double> total_accelerator_memory_gib() const {
    if (!accelerator_count || !accelerator_memory_gib) return std::nullopt;
    return *accelerator_count * *accelerator_memory_gib;
  }
};

// One row of the accelerator table (rules/data/accelerators.json).
struct AcceleratorRow {
  std::string instance_type;  // "ml.p3.2xlarge"
  std::string accelerator;    // "NVIDIA V100"
  int count = 0;
  double memory_per_accelerator_gib = 0;
  int vcpu = 0;
  double memory_gib = 0;
  std::string memory_basis;  // "EC2 DescribeInstanceTypes", "AWS Neuron documentation", …
  std::string source;        // the references of the row ("karp_preview (count, …); batch_gpu")
};
// Every row, sorted by instance type.
const std::vector<AcceleratorRow>& AcceleratorTable();

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

// The instance type list (an enum of the SageMaker API) a kind of workload is
// checked against: rules/data/offered.json, generated from the botocore
// service model by scripts/update-offered-instances.py.
enum class OfferKind : std::uint8_t { kNotebook, kTraining, kProcessing, kTransform, kEndpoint, kStudioApp, kCluster };
// nullopt for kinds without instances of their own (scalable targets,
// lifecycle scripts, IAM statements, inference components). Studio domains,
// user profiles and spaces give kStudioApp: their instance types are those of
// their apps.
std::optional<OfferKind> OfferKindFor(WorkloadKind kind);
// "notebook instances", "training jobs", "processing jobs", "batch transform
// jobs", "endpoint variants", "Studio apps", "HyperPod clusters".
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
