#!/bin/sh
# Builds and runs the external feature package against ../../Modules/Tracking.
# Exits non-zero if the build fails or the recorded events are not what was sent.
set -eu
cd "$(dirname "$0")"
# A scratch folder of its own inside the example (ignored by git), so two runs never share one.
exec swift run --scratch-path .build-external ExternalFeature
