// Terraform resources (from HCL evaluation or a plan) -> workloads.
#ifndef SAGELINT_PARSERS_TERRAFORM_RESOURCES_H_
#define SAGELINT_PARSERS_TERRAFORM_RESOURCES_H_

#include <string>
#include <vector>

#include "linter/model/model.h"
#include "parsers/terraform/value.h"

namespace sagelint::tf {

struct Resource {
  std::string mode;     // "resource" or "data"
  std::string type;     // "aws_sagemaker_notebook_instance"
  std::string address;  // "aws_sagemaker_notebook_instance.explore" (with "module.x." prefix in modules)
  TfVal body;           // evaluated attributes; nested blocks as lists of objects
  SourceRange range;    // the block's first line
  std::string path;     // display path of the file that declares it
  std::string scope;    // the linking scope: the root module evaluation it belongs to
  // For a resource of a called module: the root-relative path of the file
  // whose module call leads to it (labels name it), its display path, and
  // that `module` block.
  std::string via;
  std::string via_path;
  SourceRange via_call;
  Format format = Format::kTerraform;
  // With count or for_each: the address without its instance key, the key as
  // written ("0", "\"ana\""), and how many instances the block makes.
  std::string construct;
  std::string instance_key;
  int instances = 0;
};

// Appends the workloads the resources declare. Links between them (endpoint
// -> config -> model, lifecycle configurations, scalable targets) are
// resolved among `resources`.
// `only` non-null: the workloads of that one resource (which need not be in
// `resources`), with `resources` as its context.
void ExtractWorkloads(const std::vector<Resource>& resources, std::vector<Workload>* out,
                      const Resource* only = nullptr);

}  // namespace sagelint::tf

#endif  // SAGELINT_PARSERS_TERRAFORM_RESOURCES_H_
