// SM213 notebook-endpoint-never-deleted: an endpoint a notebook deploys and no
// cell deletes keeps billing around the clock after the notebook is closed.
#include "linter/cost/prices.h"
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {

void CheckNotebookEndpointNeverDeleted(const Workload& w, const RuleContext&, Sink& sink) {
  // A .py deploy script means its endpoint to stay; a notebook demo usually does not.
  if (w.format != Format::kNotebook) return;
  if (w.serverless.present()) return;  // serverless (or possibly so): bills per request
  // The front end says "false" only when nothing in the notebook's workflow
  // deletes the endpoint and no delete there could name it (DeletedByWorkflow).
  if (!w.deleted.known() || w.deleted.text != "false") return;
  Report r;
  // At the deploy: `deploy()`, or a boto3 endpoint's create_endpoint.
  r.at = w.deleted.range.valid() ? w.deleted.range : w.range;
  bool async = w.async_inference.boolean().value_or(false);
  // origin: why a delete that exists does not count ("the delete in cell 9 runs only when …").
  std::string why = w.deleted.origin.empty() ? std::string() : " (" + w.deleted.origin + ")";
  r.message = w.label + " (" + (async ? "asynchronous" : "real-time") +
              " endpoint) is deployed by this notebook and no cell deletes it" + why +
              ": it bills around the clock after the notebook is closed";
  r.suggestion =
      "end the notebook with a clean-up cell that deletes the endpoint (predictor.delete_endpoint(), "
      "endpoint.delete(), or the SageMaker client's delete_endpoint(EndpointName=...)), or delete it from "
      "a clean-up notebook in the same directory";
  if (w.instance_type.known()) {
    r.cost = Cost(w.instance_type.text, w.instance_count.number().value_or(1), AlwaysOn(w));
    r.cost->saving_is_deletion = true;
  }
  if (!w.delete_statement.empty()) {
    FixChange cell;
    cell.op = FixChange::Op::kAppendCell;
    cell.value = "# Clean up: delete the endpoints this notebook deployed, so that they stop billing.\n" +
                 w.delete_statement + "\n";
    std::vector<FixChange> changes = {std::move(cell)};
    if (!w.delete_capture.empty()) {
      // Its name is bound again later: the endpoint is kept under a name of its own at its deploy.
      FixChange keep;
      keep.op = FixChange::Op::kInsert;
      keep.field = "statement_after";
      keep.range = w.delete_capture_at;
      keep.value = w.delete_capture;
      changes.push_back(std::move(keep));
    }
    r.fix = MakeFix(
        Applicability::kUnsafe,
        (w.delete_capture.empty() ? "" : "keep this endpoint after its deploy (" + w.delete_capture + "), then ") +
            "append a clean-up cell: " + w.delete_statement,
        std::move(changes));
  } else {
    r.fix_unavailable =
        "no statement at the end of the notebook can name this endpoint: its predictor is made inside a function, "
        "loop, branch or helper (or by a statement that binds no name of its own), and the endpoint's name is not "
        "a literal";
  }
  sink.Emit(w, std::move(r));
}

}  // namespace sagelint::rules
