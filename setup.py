"""Builds the engine's compiled core (rivals/engine/_core.c); everything else is in pyproject.toml."""
from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("rivals.engine._core", ["rivals/engine/_core.c"], extra_compile_args=["-O2"]),
    ],
)
