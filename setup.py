"""The templates live in site_templates/ at the top of the project (beside cards/ and rules/);
a built wheel carries a copy inside the charnel package, where charnel.templates finds it."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithTemplates(build_py):
    def run(self):
        super().run()
        target = Path(self.build_lib) / "charnel" / "site_templates"
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(Path(__file__).parent / "site_templates", target)
        # the site's page on the search language is made from this document
        docs = Path(self.build_lib) / "charnel" / "docs"
        docs.mkdir(exist_ok=True)
        shutil.copyfile(Path(__file__).parent / "docs" / "search.md", docs / "search.md")


# build/ is charnel's output folder: setuptools works in a folder of its own
setup(cmdclass={"build_py": BuildWithTemplates}, options={"build": {"build_base": ".setuptools"}})
