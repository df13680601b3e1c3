#!/usr/bin/env bash
# Deploys things.

readonly VERSION="1.2.0"
export DEPLOY_HOME=/opt/deploy
LOG_FILE=/tmp/deploy.log
declare -a TARGETS=(web db)

log() {
  local level=$1
  echo "[$level] $2" >>"$LOG_FILE"
}

function deploy_one {
  local target=$1
  helper() { echo "nested"; }
  log info "deploying $target"
}

function cleanup() {
  rm -rf /tmp/deploy.*
}

alias dl='deploy_one'

main() {
  for t in "${TARGETS[@]}"; do
    deploy_one "$t"
  done
}

main "$@"
