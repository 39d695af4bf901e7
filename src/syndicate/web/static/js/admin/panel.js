// A panel of the admin page: a titled box in its grid, and one the width of the page.
import { h } from "../common.js";

export const panel = (id, title, ...body) => h("section", { class: "card-box scroll", "aria-labelledby": `${id}-h` }, h("h2", { id: `${id}-h` }, title), ...body);

/** A panel the width of the page: the house's figures are the host's first number, never scrolled out of view. */
export const wide = (el) => { el.classList.add("wide"); return el; };
