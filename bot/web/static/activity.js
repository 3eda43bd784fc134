// The web board as a Discord Activity: this script speaks to the Discord client that frames the
// page, signs the person in through the bot's server, then loads the board's own script
// (board.js) on the game of the Activity's channel. No framework, no build step: a small client
// of the Embedded App SDK's postMessage protocol, written for this page (see README,
// "Discord Activity", and bot/web/activity.py for the server's side).
//
// The protocol, as the SDK speaks it (discord/embedded-app-sdk, src/Discord.ts):
// - Discord frames the page with ?frame_id=…&instance_id=…&platform=desktop|mobile, and
//   channel_id, guild_id, location_id when it has them.
// - Each message is an array [opcode, payload], posted to the frame's parent (its opener in a
//   pop-out window) at the origin of document.referrer. Opcodes: HANDSHAKE 0, FRAME 1,
//   CLOSE 2, HELLO 3 (an old client's; ignored).
// - The page opens with [HANDSHAKE, {v: 1, encoding: "json", client_id, frame_id}]; the client
//   answers a FRAME {cmd: "DISPATCH", evt: "READY", data: {v, config, user?}}.
// - A command is [FRAME, {cmd, args, nonce}]; its answer is a FRAME with the same nonce:
//   {cmd, data, evt: null, nonce}, or {evt: "ERROR", data: {code, message}} when refused.
// - AUTHORIZE {client_id, response_type: "code", scope, prompt: "none", state} answers
//   {code}, which only the server can exchange (it holds the application's secret);
//   AUTHENTICATE {access_token} tells the client the page is signed in.
// - Only messages from the parent window at one of Discord's origins (or "null", as the SDK
//   allows) are read; once the client has answered, the page posts to that origin only, and
//   sends the access token (AUTHENTICATE) only to a Discord origin.
"use strict";
(function () {
  const conf = JSON.parse(document.getElementById("activity").textContent);
  const words = conf.words;
  const params = new URLSearchParams(location.search);
  const OP = { HANDSHAKE: 0, FRAME: 1, CLOSE: 2, HELLO: 3 };
  const READY_SECONDS = 15; // the client answers the handshake at once; past this, give up
  // How often the page asks for the channel's game: a new game replaces a finished one, and
  // the board catches up even if a proxy holds back its live stream (server-sent events).
  const POLL_SECONDS = 20;
  // Inside Discord the page is served from <client_id>.discordsays.com, whose proxy forwards
  // the paths under /.proxy/ to the bot's server (the application's URL mapping).
  const root = location.hostname.endsWith(".discordsays.com") ? "/.proxy" : "";
  const status = document.getElementById("activity-status");

  function say(text, kind) {
    status.textContent = text || "";
    status.hidden = !text;
    document.body.dataset.activity = kind;
  }

  // -- the Discord client, over postMessage ------------------------------------------------------
  class DiscordClient {
    constructor(clientId, frameId, origins) {
      this.clientId = clientId;
      this.frameId = frameId;
      this.origins = new Set(origins);
      this.target = window.parent.opener || window.parent;
      let asked = "*"; // the handshake carries nothing secret
      try {
        const referrer = document.referrer ? new URL(document.referrer).origin : null;
        if (referrer && this.origins.has(referrer)) asked = referrer;
      } catch (e) { /* an unreadable referrer: "*" for the handshake only */ }
      this.origin = asked;
      this.pending = new Map();
      this.count = 0;
      this.answered = false;
      this.onReady = null;
      window.addEventListener("message", (event) => this.receive(event));
    }

    post(message) {
      this.target.postMessage(message, this.origin);
    }

    ready() {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no READY")), READY_SECONDS * 1000);
        this.onReady = (data) => { clearTimeout(timer); resolve(data); };
        this.post([OP.HANDSHAKE, { v: 1, encoding: "json", client_id: this.clientId, frame_id: this.frameId }]);
      });
    }

    command(cmd, args) {
      if (!this.answered) return Promise.reject(new Error("the client has not answered"));
      const nonce = `${Date.now().toString(36)}-${++this.count}-${Math.random().toString(36).slice(2)}`;
      return new Promise((resolve, reject) => {
        this.pending.set(nonce, { resolve, reject });
        this.post([OP.FRAME, { cmd: cmd, args: args, nonce: nonce }]);
      });
    }

    receive(event) {
      if (event.source !== this.target || !this.origins.has(event.origin)) return;
      if (!Array.isArray(event.data) || event.data.length !== 2) return;
      const [opcode, payload] = event.data;
      if (opcode !== OP.FRAME || !payload || typeof payload !== "object") return;
      if (payload.cmd === "DISPATCH") {
        if (payload.evt === "READY" && this.onReady) {
          // From now on, only this origin hears the page; a client whose page has no origin
          // ("null", as the SDK allows) is answered as the SDK does, at "*".
          this.answered = true;
          this.origin = event.origin === "null" ? "*" : event.origin;
          const done = this.onReady;
          this.onReady = null;
          done(payload.data);
        }
        return;
      }
      const waiting = this.pending.get(payload.nonce);
      if (!waiting) return;
      this.pending.delete(payload.nonce);
      if (payload.evt === "ERROR") waiting.reject(payload.data || {});
      else waiting.resolve(payload.data || {});
    }
  }

  // -- the bot's server ------------------------------------------------------------------------
  let session = null;
  let shown = null; // the game whose board is on the page

  async function ask(path, options) {
    try {
      const response = await fetch(root + path, Object.assign({ credentials: "omit", cache: "no-store" }, options));
      const answer = await response.json();
      return Object.assign({ status: response.status }, answer);
    } catch (e) {
      return { status: 0, ok: false, text: words.connecting };
    }
  }

  async function signIn(discord, instanceId) {
    let code;
    try {
      const data = await discord.command("AUTHORIZE", {
        client_id: conf.client_id, response_type: "code", state: "", prompt: "none", scope: ["identify"],
      });
      code = data.code;
    } catch (e) {
      say(words.declined, "declined");
      return false;
    }
    const answer = await ask("/api/activity/token", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code: code, instance_id: instanceId }),
    });
    if (!answer.ok) { say(answer.text, "refused"); return false; }
    session = answer.session;
    document.body.dataset.user = answer.user.id;
    if (discord.origin !== "*") { // the token goes to a Discord origin, never to "*"
      try {
        await discord.command("AUTHENTICATE", { access_token: answer.access_token });
      } catch (e) { /* the board needs nothing more from the client */ }
    }
    return true;
  }

  function showBoard(boot) {
    boot.api_base = root + boot.base; // board.js's requests, through the proxy
    document.getElementById("boot").textContent = JSON.stringify(boot);
    const script = document.createElement("script");
    script.src = "static/board.js";
    document.head.appendChild(script);
    shown = boot.state.game;
    document.body.dataset.game = shown;
    document.body.dataset.seated = boot.as ? "1" : "";
  }

  async function follow() {
    const answer = await ask(`/api/activity/game?lang=${encodeURIComponent(conf.lang)}`, {
      headers: { Authorization: "Bearer " + session },
    });
    if (answer.status === 401) { say(answer.text, "expired"); setTimeout(() => location.reload(), 3000); return; }
    if (!answer.ok) say(answer.text, shown === null ? "refused" : "board");
    else if (answer.game === null) say(shown === null ? answer.text : "", shown === null ? "waiting" : "board");
    else if (shown === null) { say("", "board"); showBoard(answer.boot); }
    else if (answer.game !== shown) { location.reload(); return; } // a new game in the channel
    else { say("", "board"); document.dispatchEvent(new CustomEvent("board:state", { detail: answer.boot.state })); }
    setTimeout(follow, POLL_SECONDS * 1000);
  }

  async function main() {
    if (!conf.client_id) { say(conf.off, "off"); return; }
    const frameId = params.get("frame_id"), instanceId = params.get("instance_id");
    if (!frameId || !instanceId || window.parent === window) { say(words.outside, "outside"); return; }
    say(words.connecting, "connecting");
    const discord = new DiscordClient(conf.client_id, frameId, conf.origins);
    try {
      await discord.ready();
    } catch (e) {
      say(words.outside, "outside");
      return;
    }
    if (await signIn(discord, instanceId)) await follow();
  }

  main();
})();
