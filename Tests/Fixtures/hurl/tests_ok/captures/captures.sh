#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/captures/captures.hurl
