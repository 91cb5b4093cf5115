#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/function/random_function.hurl
