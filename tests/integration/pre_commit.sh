#!/usr/bin/env bash
# The pre-commit hook end to end with the real `pre-commit`: a commit with a
# costly template is blocked with the finding shown, a clean one passes, only
# staged files are scanned, and a staged Terraform file is evaluated with its
# module's unstaged siblings.
# Usage: pre_commit.sh SAGELINT_BINARY SOURCE_DIR
set -euo pipefail
bin="$1" src="$2"
command -v pre-commit >/dev/null || { echo "pre-commit is not installed (scripts/test.sh installs it)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export PATH="$(dirname "$bin"):$PATH" PRE_COMMIT_HOME="$work/cache" HOME="$work/home"
mkdir -p "$HOME"
# The hook repository: this source tree as pre-commit clones it.
hooks="$work/hooks"
git clone -q "$src" "$hooks"
cp "$src/.pre-commit-hooks.yaml" "$hooks/"
git -C "$hooks" -c user.email=t@t -c user.name=t add -A
git -C "$hooks" -c user.email=t@t -c user.name=t commit -qm hooks --allow-empty
rev=$(git -C "$hooks" rev-parse HEAD)

repo="$work/repo"
mkdir -p "$repo/infra" "$repo/tf"
cd "$repo"
git init -q .
git config user.email t@t
git config user.name t
# use_hook ID [ENTRY]: the configuration runs that hook of the hook repository (staged).
use_hook() {
  printf 'repos:\n  - repo: %s\n    rev: %s\n    hooks:\n      - id: %s\n' "$hooks" "$rev" "$1" > .pre-commit-config.yaml
  if [ $# -gt 1 ]; then printf '        entry: %s\n' "$2" >> .pre-commit-config.yaml; fi
  git add .pre-commit-config.yaml
}
use_hook sagelint
git commit -qm config --no-verify
pre-commit install >/dev/null

cat > infra/notebook.yaml <<'YAML'
AWSTemplateFormatVersion: "2010-09-09"
Resources:
  Explore:
    Type: AWS::SageMaker::NotebookInstance
    Properties:
      InstanceType: ml.t3.xlarge
      RoleArn: arn:aws:iam::111122223333:role/sagemaker
YAML
git add infra/notebook.yaml
if out=$(git commit -qm "costly notebook" 2>&1); then
  echo "FAIL: the commit with a costly template was not blocked"; echo "$out"; exit 1
fi
grep -q "warning\[SM201\] notebook instance 'Explore'" <<<"$out" || { echo "FAIL: finding not shown"; echo "$out"; exit 1; }
echo "ok: blocked with the finding shown"

# Unstage it; a clean template passes, and the unstaged one is not scanned.
git reset -q infra/notebook.yaml
cat > infra/clean.yaml <<'YAML'
AWSTemplateFormatVersion: "2010-09-09"
Resources:
  Explore:
    Type: AWS::SageMaker::NotebookInstance
    Properties:
      InstanceType: ml.t3.medium
      RoleArn: arn:aws:iam::111122223333:role/sagemaker
      LifecycleConfigName: auto-stop-idle
YAML
git add infra/clean.yaml
out=$(git commit -qm "clean notebook" 2>&1) || { echo "FAIL: a clean commit was blocked"; echo "$out"; exit 1; }
echo "ok: clean commit passes; unstaged files ignored"

# Terraform: only main.tf is staged; its instance type comes from variables.tf, committed earlier.
cat > tf/variables.tf <<'HCL'
variable "notebook_type" {
  default = "ml.p3.2xlarge"
}
HCL
git add tf/variables.tf
git commit -qm variables --no-verify
cat > tf/main.tf <<'HCL'
resource "aws_sagemaker_notebook_instance" "gpu" {
  name                  = "gpu"
  instance_type         = var.notebook_type
  role_arn              = "arn:aws:iam::111122223333:role/sagemaker"
  lifecycle_config_name = "auto-stop-idle"
}
HCL
git add tf/main.tf
if out=$(git commit -qm "gpu notebook" 2>&1); then
  echo "FAIL: the Terraform notebook on a GPU was not blocked"; echo "$out"; exit 1
fi
grep -q "tf/main.tf:3:.*warning\[SM103\].*ml.p3.2xlarge" <<<"$out" || { echo "FAIL: sibling variables not used"; echo "$out"; exit 1; }
if grep -q "variables.tf:" <<<"$out"; then echo "FAIL: an unstaged sibling was reported"; exit 1; fi
echo "ok: Terraform evaluated with its module, findings for the staged file only"

# The sagelint-fix hook: a finding without a fix blocks the commit as the plain
# hook does; a fixable one is fixed in the work tree and the commit is blocked
# (pre-commit fails a hook that changed a file); staged again, it passes.
use_hook sagelint-fix
git commit -qm "the fixing hook" --no-verify
git add infra/notebook.yaml
if out=$(git commit -qm "costly notebook" 2>&1); then
  echo "FAIL: sagelint-fix let a finding without a fix through"; echo "$out"; exit 1
fi
grep -q "warning\[SM201\] notebook instance 'Explore'" <<<"$out" || { echo "FAIL: finding not shown"; echo "$out"; exit 1; }
if grep -q "files were modified by this hook" <<<"$out"; then echo "FAIL: a file was modified"; echo "$out"; exit 1; fi
echo "ok: sagelint-fix blocks a finding it cannot fix, and changes nothing"

# sagelint-build with the entry override the README gives runs `scan --fix` too
# (its cache seeded with this binary for the hook's revision: nothing is built).
export SAGELINT_BUILD_CACHE="$work/build-cache"
mkdir -p "$SAGELINT_BUILD_CACHE"
cp "$bin" "$SAGELINT_BUILD_CACHE/sagelint"
echo "$rev" > "$SAGELINT_BUILD_CACHE/.source-stamp"
use_hook sagelint-build "scripts/pre-commit-build.sh --fix --"
if out=$(git commit -qm "costly notebook" 2>&1); then
  echo "FAIL: sagelint-build --fix let a finding through"; echo "$out"; exit 1
fi
grep -q "sagelint: fixed 0 findings in 0 files" <<<"$out" || { echo "FAIL: not run with --fix"; echo "$out"; exit 1; }
grep -q "warning\[SM201\] notebook instance 'Explore'" <<<"$out" || { echo "FAIL: finding not shown"; echo "$out"; exit 1; }
echo "ok: sagelint-build with entry: scripts/pre-commit-build.sh --fix -- runs the fixing scan"
git reset -q infra/notebook.yaml
git checkout -q HEAD -- .pre-commit-config.yaml

cat > infra/ei.yaml <<'YAML'
AWSTemplateFormatVersion: "2010-09-09"
Resources:
  Config:
    Type: AWS::SageMaker::EndpointConfig
    Properties:
      ProductionVariants:
        - VariantName: AllTraffic
          ModelName: scoring
          InstanceType: ml.m5.large
          InitialInstanceCount: 1
          AcceleratorType: ml.eia2.medium
YAML
sed '$d' infra/ei.yaml > "$work/ei-fixed.yaml"
git add infra/ei.yaml
if out=$(git commit -qm "endpoint" 2>&1); then echo "FAIL: a fixed file was committed unstaged"; echo "$out"; exit 1; fi
grep -q "files were modified by this hook" <<<"$out" || { echo "FAIL: pre-commit saw no change"; echo "$out"; exit 1; }
cmp -s infra/ei.yaml "$work/ei-fixed.yaml" || { echo "FAIL: not fixed as expected"; diff "$work/ei-fixed.yaml" infra/ei.yaml; exit 1; }
git add infra/ei.yaml
out=$(git commit -qm "endpoint" 2>&1) || { echo "FAIL: the fixed file was blocked"; echo "$out"; exit 1; }
echo "ok: sagelint-fix fixes a file and fails once; staged again, it passes"
