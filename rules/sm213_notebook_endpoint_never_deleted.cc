// SM213 notebook-endpoint-never-deleted: an endpoint a notebook deploys and no
// cell deletes keeps billing around the clock after the notebook is closed.
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {

void CheckNotebookEndpointNeverDeleted(const Workload& w, const RuleContext&, Sink& sink) {
  // A .py deploy script means its endpoint to stay; a notebook demo usually does not.
  if (w.format != Format::kNotebook) return;
  if (w.serverless.present()) return;  // serverless (or possibly so): bills per request
  // The front end says "false" only when no cell deletes the endpoint and no
  // delete in the notebook could name it.
  if (!w.deleted.known() || w.deleted.text != "false") return;
  Report r;
  r.at = w.range;
  bool async = w.async_inference.boolean().value_or(false);
  r.message = w.label + " (" + (async ? "asynchronous" : "real-time") +
              " endpoint) is deployed by this notebook and no cell deletes it: it bills around the clock after "
              "the notebook is closed";
  r.suggestion =
      "end the notebook with a clean-up cell that deletes the endpoint (predictor.delete_endpoint(), "
      "or the SageMaker client's delete_endpoint(EndpointName=...))";
  if (w.instance_type.known()) {
    r.cost = Cost(w.instance_type.text, w.instance_count.number().value_or(1), true);
  }
  sink.Emit(w, std::move(r));
}

}  // namespace sagelint::rules
