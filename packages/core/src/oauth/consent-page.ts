// The pages of the authorization server: the consent page and the page of an error that cannot go back to the
// client. Rendered on the server (no script), in the look of the web UIs' sign-in card.
import { createHash } from 'node:crypto';
import type { SessionUser } from '../web-session.ts';
import type { AuthorizeRequest } from './authorize-request.ts';
import type { GrantChoice, OAuthResourceSpec } from './resource-spec.ts';

const STYLE = `
:root { --bg:#f7f7f8; --surface:#fff; --border:#e2e2e6; --text:#1b1b1f; --text-2:#5b5b66; --text-3:#8a8a96; --accent:#4f46e5; --accent-hover:#4338ca; --accent-soft:#eef0ff; --danger:#c62828; --danger-soft:#fdecec; }
* { box-sizing: border-box; }
html, body { height: 100%; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; color: var(--text); background: var(--bg); display: flex; align-items: center; justify-content: center; padding: 24px; }
main { width: 440px; max-width: 100%; background: var(--surface); border: 1px solid var(--border); border-radius: 10px; box-shadow: 0 1px 2px rgb(0 0 0 / 6%), 0 4px 16px rgb(0 0 0 / 6%); }
.body { padding: 20px; display: flex; flex-direction: column; gap: 14px; }
.fields { display: flex; flex-direction: column; gap: 14px; }
.head { display: flex; align-items: center; gap: 10px; }
.mark { width: 28px; height: 28px; border-radius: 7px; background: linear-gradient(135deg, #4f46e5, #7c3aed); flex: none; }
h1 { font-size: 19px; margin: 0; font-weight: 600; }
.muted { color: var(--text-2); }
.faint { color: var(--text-3); font-size: 12px; }
p { margin: 0; }
code { font: 12.5px ui-monospace, Menlo, Consolas, monospace; background: #f1f1f3; padding: 1px 4px; border-radius: 4px; word-break: break-all; }
label.field { display: flex; flex-direction: column; gap: 4px; font-weight: 500; }
select { height: 32px; border: 1px solid #c9c9d1; border-radius: 6px; padding: 0 8px; font: inherit; background: #fff; }
fieldset { border: 1px solid var(--border); border-radius: 8px; margin: 0; padding: 8px 12px 10px; display: flex; flex-direction: column; gap: 6px; }
legend { font-weight: 500; padding: 0 4px; }
.option { display: flex; gap: 8px; align-items: flex-start; }
.option input { margin-top: 3px; }
.option span { display: flex; flex-direction: column; }
.alert { background: var(--danger-soft); color: var(--danger); border-radius: 6px; padding: 8px 10px; }
.actions { display: flex; gap: 8px; justify-content: flex-end; }
button { height: 32px; padding: 0 14px; border-radius: 6px; border: 1px solid #c9c9d1; background: #fff; font: 500 13px inherit; cursor: pointer; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
button.primary:hover { background: var(--accent-hover); }
:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
`;

const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/**
 * The headers of the server's pages: never cached, never framed (a consent page in a frame could be clicked
 * through), nothing loaded but the page's own style, and forms posted only here; the consent form's answer
 * redirects to the client, so its origin is allowed as a form target too (browsers check redirects of a form
 * submission against `form-action`).
 */
export function pageHeaders(redirectOrigin?: string): Record<string, string> {
  const formAction = ["'self'", redirectOrigin].filter(Boolean).join(' ');
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'x-frame-options': 'DENY',
    // same-origin, not no-referrer: with no-referrer, Chromium posts the consent form with `Origin: null`, which the Origin check refuses.
    'referrer-policy': 'same-origin',
    'content-security-policy': `default-src 'none'; style-src ${STYLE_HASH}; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
  };
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main><div class="body">
${body}
</div></main>
</body>
</html>
`;
}

function header(heading: string, subtitle: string): string {
  return `<div class="head"><span class="mark" aria-hidden="true"></span><div><h1>${escapeHtml(heading)}</h1><div class="muted">${escapeHtml(subtitle)}</div></div></div>`;
}

/** What the consent page shows. */
export interface ConsentView {
  request: AuthorizeRequest;
  user: SessionUser;
  choices: GrantChoice[];
  spec: Pick<OAuthResourceSpec, 'title' | 'scopeNoun' | 'grantsPlace'>;
}

function hostOf(uri: string): string {
  try {
    return new URL(uri).host;
  } catch {
    return uri;
  }
}

/**
 * The consent page: the client by name and by where it sends the person back, the signed-in user, a picker
 * of the projects or organizations they may grant, the access (read, or read and write), and **Allow** /
 * **Deny**. The form posts the request's own parameters back, so the post is checked as the request was.
 */
export function renderConsentPage(view: ConsentView): string {
  const { request, user, choices, spec } = view;
  const noun = spec.scopeNoun;
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);
  const hidden = Object.entries(request.params)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  const identity =
    request.client.kind === 'document'
      ? `<p class="faint">Client identity published at <code>${escapeHtml(request.client.clientId)}</code>.</p>`
      : `<p class="faint">Registered client <code>${escapeHtml(request.client.clientId)}</code>.</p>`;
  const widest = request.levels.length - 1;
  const levels = request.levels
    .map(
      (level, index) =>
        `<label class="option"><input type="radio" name="access" value="${escapeHtml(level.id)}"${index === widest ? ' checked' : ''}><span>${escapeHtml(level.label)}${
          level.description ? `<span class="faint">${escapeHtml(level.description)}</span>` : ''
        }</span></label>`,
    )
    .join('\n');
  const picker =
    choices.length === 0
      ? `<p class="alert" role="alert">You are not a member of any ${escapeHtml(noun)} ${escapeHtml(spec.title)} can grant here. Ask an admin to add you, then try again.</p>`
      : `<label class="field">${Noun}<select name="scope_key">${choices
          .map(
            (choice, index) =>
              `<option value="${escapeHtml(choice.key)}"${index === 0 ? ' selected' : ''}>${escapeHtml(choice.name === choice.key ? choice.key : `${choice.name} (${choice.key})`)}</option>`,
          )
          .join('')}</select></label>
<fieldset><legend>Access</legend>
${levels}
</fieldset>`;
  const body = `${header(`Connect ${request.clientName}`, `Switchboard · ${spec.title}`)}
<p><strong>${escapeHtml(request.clientName)}</strong> wants to use ${escapeHtml(spec.title)} as <strong>${escapeHtml(user.email)}</strong>. You will be sent back to <strong>${escapeHtml(hostOf(request.redirectUri))}</strong>.</p>
${identity}
<form method="post" action="/oauth/authorize">
<div class="fields">
${hidden}
${picker}
<div class="actions"><button type="submit" name="decision" value="deny">Deny</button>${choices.length > 0 ? '<button type="submit" name="decision" value="allow" class="primary">Allow</button>' : ''}</div>
</div>
</form>
<p class="faint">You can revoke this connection at any time in ${escapeHtml(spec.grantsPlace)}.</p>`;
  return page(`Connect ${request.clientName} · Switchboard`, body);
}

/** The page of an authorization request that cannot be answered to the client (unknown client, unregistered redirect URI). */
export function renderErrorPage(heading: string, message: string): string {
  return page(
    `${heading} · Switchboard`,
    `${header(heading, 'Switchboard')}
<p class="alert" role="alert">${escapeHtml(message)}</p>
<p class="muted">Go back to the app you came from and connect again. If this keeps happening, the app's developer can read the message above.</p>`,
  );
}
