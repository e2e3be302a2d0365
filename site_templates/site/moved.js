// charnel site: a page that moved keeps its query and fragment (a meta refresh drops them).
"use strict";
{
  const target = document.querySelector("link[rel=canonical]").getAttribute("href");
  if (location.search || location.hash) location.replace(target + location.search + location.hash);
}
