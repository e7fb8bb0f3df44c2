#!/bin/sh
# Builds and runs the external feature package against ../../Modules/Tracking.
# Exits non-zero if the build fails or the recorded events are not what was sent.
set -eu
cd "$(dirname "$0")"
exec swift run --scratch-path /tmp/ext-build ExternalFeature
