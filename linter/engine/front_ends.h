// The front ends, one row each: which files a front end reads, how it tells
// its files from another's of the same name, how it parses them, and how
// it gives their comments (suppressions). Discovery, the dispatch to the
// parsers, suppressions, the treatment of a file that failed to parse and the
// timing figures all read this table; a new front end is a row here and its
// folder under parsers/. A row names only what its front end has (designated
// initializers, in the order of the fields); the rest keeps its default.
#ifndef SAGELINT_LINTER_ENGINE_FRONT_ENDS_H_
#define SAGELINT_LINTER_ENGINE_FRONT_ENDS_H_

#include <map>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "linter/engine/suppress.h"
#include "linter/model/fix.h"
#include "linter/model/model.h"
#include "parsers/frontend.h"

namespace sagelint {

struct FrontEnd {
  std::string_view name;  // "cloudformation", "terraform-plan", …
  // What its files are called in the timing figures (--timing). Rows that
  // read the same file names are adjacent and share it.
  std::string_view files;
  Format format = Format::kCloudFormation;  // of its workloads, and of a parse error the driver reports for it
  // The file names it reads: case-insensitive endings ("/cdk.json": a whole
  // file name). A file belongs to the first row whose ending matches
  // (".tf.json" is Terraform's, not JSON's).
  std::span<const std::string_view> suffixes;
  // Among the rows reading the same names, the first whose `sniff` accepts a
  // file's content parses it (nullptr: any content). Only files that
  // mention SageMaker are read at all.
  bool (*sniff)(std::string_view text) = nullptr;
  // Parses one file alone; nullptr when the front end reads a directory's
  // files together (`parse_module`).
  FileResult (*parse)(const SourceFile& file, const ResolveOptions& opts) = nullptr;
  // `parse` that also gives the comments of the tree it builds (nullopt when
  // it builds none), so that a file mentioning `sagelint:` is not parsed a
  // second time for them; nullptr: they come from `comments`.
  FileResult (*parse_keeping_comments)(const SourceFile& file, const ResolveOptions& opts,
                                       std::optional<std::vector<Comment>>* comments) = nullptr;
  // Parses the files of one module directory together with the local modules
  // they call (Terraform); nullptr for a front end of single files.
  std::vector<FileResult> (*parse_module)(const TerraformRoot& root, const ResolveOptions& opts) = nullptr;
  // `parse_module` that also gives the comments of the trees it builds, by
  // display path (a file it gives none for has them found from `comments`).
  std::vector<FileResult> (*parse_module_keeping_comments)(const TerraformRoot& root, const ResolveOptions& opts,
                                                           std::map<std::string, std::vector<Comment>>* comments) =
      nullptr;
  // Parses one file that stands for several (a CDK app's `cdk.json`, a source
  // file of an app named alone): one result per file of what it evaluates.
  // `named`: the file was named on the command line.
  std::vector<FileResult> (*parse_app)(const SourceFile& file, bool named, const ResolveOptions& opts) = nullptr;
  // How its files give their comments (for `sagelint:` suppressions and
  // annotations; parsers/common/comments.h), and those of its files whose name
  // ends in ".json". kNone: no comments.
  CommentSyntax comments = CommentSyntax::kNone;
  CommentSyntax json_comments = CommentSyntax::kNone;
  // A file with a parse error still gives the findings of what did parse (a
  // Python statement outside the broken one); else only its SM000, as what
  // was extracted may be partial.
  bool keeps_partial_results = false;
  // Its files are read only when named on the command line (a walk reaches
  // them through their app's cdk.json instead).
  bool named_only = false;
  // Its files are read whether or not they mention SageMaker (an app's
  // cdk.json: the files it brings decide).
  bool ungated = false;
  // Turns a fix's change that is more than a literal's new text (an inserted
  // or removed member, an appended notebook cell; README "Fixes") into an edit of
  // `text`, a file of this front end; nullopt where it cannot (the change is
  // then not offered). nullptr: the format takes no such change.
  std::optional<TextEdit> (*edit)(std::string_view text, const FixChange& change) = nullptr;
  // The file names whose fixes it edits, as exact endings (a literal's new
  // text included); empty: all its files. A finding in another of its files
  // has no fix, and `not_edited` says why.
  std::span<const std::string_view> edited = {};
  std::string_view not_edited = {};

  bool reads_modules() const { return parse_module != nullptr; }
  bool Edits(std::string_view path) const;
  CommentSyntax CommentsIn(std::string_view path) const;
};

// Every front end, in the order files are matched against them.
std::span<const FrontEnd> FrontEnds();

// The front end whose file names `path` has (the first matching row), or
// nullptr: a file no front end reads.
const FrontEnd* FrontEndForPath(std::string_view path);

// Which of the rows reading `path`'s names (starting at `first`, the row
// FrontEndForPath gives) takes a file with this content; nullptr: none.
const FrontEnd* FrontEndForContent(const FrontEnd& first, std::string_view text);

// The first row producing `format` (rows sharing a format agree on all but
// their files and parse entry points).
const FrontEnd& FrontEndOf(Format format);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_FRONT_ENDS_H_
