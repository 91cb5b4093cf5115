#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/insecure/insecure_option.hurl
