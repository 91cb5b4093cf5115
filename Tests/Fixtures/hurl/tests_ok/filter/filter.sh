#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/filter/filter.hurl
