// The Terraform front end's comments: taken from the trees its parse builds,
// so a module's files are not parsed a second time for their `sagelint:`
// comments.
#ifndef SAGELINT_PARSERS_TERRAFORM_COMMENTS_H_
#define SAGELINT_PARSERS_TERRAFORM_COMMENTS_H_

#include <map>
#include <string>
#include <vector>

#include "parsers/common/comments.h"
#include "parsers/frontend.h"

namespace sagelint {

// ParseTerraformModule that also gives, by display path, every comment of the
// tree of each of the root module's HCL files whose text mentions `sagelint:`,
// as tf::HclComments finds them. A file without an entry (JSON, a called
// module's file) has its comments found apart.
std::vector<FileResult> ParseTerraformModuleKeepingComments(const TerraformRoot& root, const ResolveOptions& opts,
                                                            std::map<std::string, std::vector<Comment>>* comments);

}  // namespace sagelint

#endif  // SAGELINT_PARSERS_TERRAFORM_COMMENTS_H_
