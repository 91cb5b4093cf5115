#!/bin/bash
set -Eeuo pipefail

hurl tests_ok/form_params/form_params.hurl
