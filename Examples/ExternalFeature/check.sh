#!/bin/sh
# Builds and runs the external feature package against ../../Modules/Tracking.
# Exits non-zero if the build fails or the recorded events are not what was sent.
set -eu
cd "$(dirname "$0")"
# A fresh scratch folder of its own, removed on exit, so two runs never share one.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
swift run --scratch-path "$scratch" ExternalFeature
