#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/float/float.hurl
