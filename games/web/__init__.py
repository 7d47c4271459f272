"""The phone-first HTML pages: views, forms, urls. Thin: read with selectors, change with
services."""
