#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/variables/variables_file.hurl
