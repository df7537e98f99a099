#!/usr/bin/env bash
# Validates deploy/k8s against the Kubernetes API schemas, strictly (unknown fields are errors),
# with kubernetes-validate from PyPI in a virtual environment of its own. No cluster needed.
set -euo pipefail
cd "$(dirname "$0")/../.."

kubernetes_version=1.30.0
venv=${CARGO_TARGET_DIR:-target}/deploy-venv
if [ ! -x "$venv/bin/kubernetes-validate" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check kubernetes-validate==1.37.0
fi
manifests=()
for file in deploy/k8s/*.yaml; do
  # The kustomization is kustomize's file, not a Kubernetes resource.
  [ "$(basename "$file")" = kustomization.yaml ] || manifests+=("$file")
done
"$venv/bin/kubernetes-validate" --strict -k "$kubernetes_version" "${manifests[@]}"
