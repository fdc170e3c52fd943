import { el } from "./dom";

/**
 * The sign-in form: the user pastes an API token. It is never submitted as a form (that could put
 * it in a URL); the page reads it and keeps it in sessionStorage.
 */
export function renderSignIn(problem: string | null, onToken: (token: string) => void): HTMLElement {
  const input = el("input", {
    id: "token",
    name: "token",
    type: "password",
    autocomplete: "off",
    spellcheck: "false",
    required: true,
    placeholder: "sk-vu-…",
    "aria-describedby": problem ? "token-hint sign-in-problem" : "token-hint",
  });
  const form = el(
    "form",
    { class: "sign-in", "aria-labelledby": "sign-in-title", method: "post", action: "#" },
    el("h2", { id: "sign-in-title" }, "Sign in"),
    problem ? el("p", { id: "sign-in-problem", class: "problem", role: "alert" }, problem) : null,
    el("label", { for: "token" }, "API token"),
    input,
    el(
      "p",
      { id: "token-hint", class: "hint" },
      "Paste a token of your organization (an administrator creates one with ",
      el("code", {}, "npm run tokens -- create --org ORG"),
      "). It stays in this browser tab only and is sent only in the Authorization header.",
    ),
    el("button", { type: "submit" }, "Sign in"),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const token = input.value.trim();
    if (token) onToken(token);
  });
  queueMicrotask(() => input.focus());
  return form;
}
