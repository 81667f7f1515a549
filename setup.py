"""Builds the engine's compiled core, ``rivals.engine._core`` (C sources in rivals/engine/csrc/);
everything else is declared in pyproject.toml."""

from glob import glob

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "rivals.engine._core",
            sources=sorted(glob("rivals/engine/csrc/*.c")),
            depends=sorted(glob("rivals/engine/csrc/*.h")),
            extra_compile_args=["-O2"],
        ),
    ],
)
