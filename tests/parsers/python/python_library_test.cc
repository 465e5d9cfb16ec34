// The Python interpreter knows libraries only through py::Library
// (docs/architecture.md "The Python interpreter and the libraries it knows"):
// run with a library of its own and no SDK model, it asks that library about
// every call, method, string link, iteration, item and dead call, and knows
// nothing of `sagemaker` itself; what the SDK knows (its sessions) the SDK
// model says.
#include <string>
#include <vector>

#include "parsers/common/tree_sitter.h"
#include "parsers/python/analyzer.h"
#include "parsers/python/sdk_model.h"
#include "tests/catch.h"

using namespace sagelint;

namespace {

// A toy library `ledger`: `ledger.Book(name)` makes a book; `book.add(x)`
// records what `x` is; `book.pages()` is an opaque value the library iterates
// and indexes. Everything the interpreter asks it is logged.
class Ledger final : public py::Library {
 public:
  std::vector<std::string> log;

  bool Call(py::Analyzer& a, const std::string& q, TSNode, py::Args& args, py::VId* result) override {
    log.push_back("call " + q);
    if (q != "ledger.Book") return false;
    log.back() += "(" + Show(a, args) + ")";
    *result = a.LibraryValue(this, py::Role::kObject, "book", 0);
    return true;
  }
  bool Method(py::Analyzer& a, py::VId receiver, std::string_view method, TSNode, py::Args& args,
              py::VId* result) override {
    if (!Mine(a, receiver)) return false;
    log.push_back("book." + std::string(method) + "(" + Show(a, args) + ")");
    if (method == "pages") {
      py::Value pages;
      pages.kind = py::VK::kOpaque;
      pages.aux = "pages:";
      *result = a.store_.New(std::move(pages));
    }
    return true;
  }
  bool Attribute(py::Analyzer& a, py::VId object, std::string_view name, TSNode, py::VId* result) override {
    if (a.store_.Kind(object) == py::VK::kOpaque && a.V(object).aux == "pages:") {  // an opaque value of its own
      log.push_back("pages." + std::string(name));
      *result = object;
      return true;
    }
    if (!Mine(a, object) || name != "id") return false;
    *result = a.LibraryValue(this, py::Role::kToken, "id", 0);  // only the library reads it
    return true;
  }
  bool SetAttribute(py::Analyzer& a, py::VId object, const std::string& name, py::Ev value) override {
    if (!Mine(a, object)) return false;
    log.push_back("book." + name + " = " + Show(a, py::Args{{value}, {}, false, {}}));
    return true;
  }
  bool Uncalled(py::Analyzer& a, py::VId object, std::string_view name, TSNode, py::VId* result) override {
    if (!Mine(a, object) || name != "add") return false;
    py::Value method;
    method.kind = py::VK::kOpaque;
    method.aux = "add:";
    *result = a.store_.New(std::move(method));
    return true;
  }
  bool MethodValue(py::Analyzer& a, py::VId v) override {
    return a.store_.Kind(v) == py::VK::kOpaque && a.V(v).aux == "add:";
  }
  bool CallValue(py::Analyzer& a, py::VId callee, TSNode, py::Args& args, py::VId* result) override {
    if (!MethodValue(a, callee)) return false;
    log.push_back("book.add taken as a value(" + Show(a, args) + ")");
    *result = a.store_.None();
    return true;
  }
  bool Unresolved(py::Analyzer& a, py::VId, std::string_view method, TSNode, py::Args& args, py::VId* result) override {
    log.push_back("unresolved ." + std::string(method) + "(" + Show(a, args) + ")");
    *result = py::kUnknown;
    return true;
  }
  std::string Link(py::Analyzer& a, py::VId v) override { return Mine(a, v) ? std::string("<book>") : std::string(); }
  bool Each(py::Analyzer& a, py::VId iterable, py::VId* element) override {
    if (a.V(iterable).aux != "pages:") return false;
    *element = a.store_.Str("a page");
    return true;
  }
  bool Item(py::Analyzer& a, py::VId container, py::VId key, py::VId* result) override {
    if (a.V(container).aux != "pages:") return false;
    *result = a.store_.Str("page " + a.V(key).text);
    return true;
  }
  void DeadCall(py::Analyzer& a, TSNode call, const std::string& why) override {
    log.push_back("dead " + std::string(a.TextOf(call)) + ": " + why);
  }
  bool RelevantName(std::string_view name) override { return name == "ledger"; }
  bool Owns(std::string_view q) override { return q.rfind("ledger", 0) == 0; }

 private:
  bool Mine(py::Analyzer& a, py::VId v) const { return a.store_.Kind(v) == py::VK::kLibrary && a.V(v).owner == this; }
  std::string Show(py::Analyzer& a, const py::Args& args) {
    std::string out;
    for (const py::Ev& e : args.positional) {
      const py::Value& x = a.V(e.v);
      if (!out.empty()) out += ", ";
      if (x.kind == py::VK::kStr)
        out += "'" + x.text + "'";
      else if (x.kind == py::VK::kOpaque && !x.link.empty())
        out += "link '" + x.link + "'";
      else if (x.kind == py::VK::kLibrary && x.owner == this)
        out += x.role == py::Role::kToken ? "a book's id" : "a book";
      else
        out += "unknown";
    }
    return out;
  }
};

std::vector<std::string> Run(const std::string& src) {
  SourceFile file{"t.py", "/nonexistent/t.py", src};
  FileResult out;
  ts::Tree tree = ts::Parse(py::PythonGrammar().language, src);
  REQUIRE(tree);
  py::Analyzer analyzer(file, src, nullptr, &out);
  Ledger ledger;
  analyzer.Run(ts_tree_root_node(tree.get()), {&ledger});
  CHECK(out.workloads.empty());  // workloads are a library's to make: this one makes none
  return ledger.log;
}

}  // namespace

TEST_CASE("the Python interpreter asks its libraries, and knows no SDK of its own") {
  std::vector<std::string> log =
      Run("import ledger\n"
          "import sagemaker\n"
          "session = sagemaker.Session()\n"
          "book = ledger.Book('main')\n"
          "book.add(f'entry-{book}')\n"
          "book.add('plain-' + book)\n"
          "for page in book.pages():\n"
          "    book.add(page)\n"
          "book.add(book.pages()['first'])\n"
          "if False:\n"
          "    book.close()\n");
  std::vector<std::string> expected{
      "call sagemaker.Session",
      "call ledger.Book('main')",
      "book.add(link 'entry-<book>')",
      "book.add(link 'plain-<book>')",
      "book.pages()",
      "book.add('a page')",
      "book.pages()",
      "book.add('page first')",
      "dead book.close(): runs only when `False` is true, and it is False",
  };
  CHECK(log == expected);
}

TEST_CASE("the Python interpreter treats a library value as the role its library gives it") {
  // An object (Role::kObject) is true, its attributes are assigned through the
  // library, and its methods taken as values run a loop per item; a token
  // (Role::kToken) is unresolved; an opaque value's attributes are its library's.
  std::vector<std::string> log =
      Run("import ledger\n"
          "book = ledger.Book('main')\n"
          "book.owner = 'me'\n"
          "if not book:\n"
          "    book.close()\n"
          "book.id.strip()\n"
          "book.add(book.id)\n"
          "for fn, x in [(book.add, 'p'), (book.add, 'q')]:\n"
          "    fn(x)\n"
          "book.pages().first.add('x')\n");
  std::vector<std::string> expected{
      "call ledger.Book('main')",
      "book.owner = 'me'",
      "dead book.close(): runs only when `not book` is true, and it is False",
      "unresolved .strip()",
      "book.add(a book's id)",
      "book.add taken as a value('p')",
      "book.add taken as a value('q')",
      "book.pages()",
      "pages.first",
      "unresolved .add('x')",
  };
  CHECK(log == expected);
}

TEST_CASE("the SDK model says which calls a conftest fixture returns make its sessions") {
  std::string src = "x = 1\n";
  SourceFile file{"t.py", "/nonexistent/t.py", src};
  FileResult out;
  py::Analyzer analyzer(file, src, nullptr, &out);
  py::SdkModel sdk(analyzer);
  CHECK(sdk.Makes("sagemaker.Session"));
  CHECK(sdk.Makes("sagemaker.local.LocalSession"));
  CHECK(sdk.Makes("sagemaker.workflow.pipeline_context.PipelineSession"));
  CHECK(sdk.Makes("sagemaker.workflow.pipeline_context.LocalPipelineSession"));
  CHECK_FALSE(sdk.Makes("sagemaker.estimator.Estimator"));
  CHECK_FALSE(sdk.Makes("boto3.Session"));
  CHECK_FALSE(sdk.Makes("ledger.Session"));
  // A library that makes nothing such: the fixture stays unknown.
  CHECK_FALSE(Ledger().Makes("sagemaker.Session"));
}
