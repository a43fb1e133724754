import { CHAT_SIDE, type ChatSide } from './side';

/**
 * Where the chat server is (CONTRACT "Serving"): the site settings' HTTP base (`messages_url` for the
 * customer, `baseOrderMessengerURL` for the console) and `baseWebSocketGatewayURL` for the socket,
 * `{origin}/chat` and `ws(s)://{host}/chat` by default. The app sets them from the settings before the
 * chat's first call (features do not read other features).
 */
const defaults = () => {
  const origin = typeof location === 'undefined' ? 'http://localhost' : location.origin;
  return { http: `${origin}/chat`, ws: `${origin.replace(/^http/, 'ws')}/chat` };
};

let base = defaults();

const trim = (url: string) => url.replace(/\/+$/, '');

export const setChatBase = ({ http, ws }: { http?: string | undefined; ws?: string | undefined }): void => {
  const fallback = defaults();
  base = { http: trim(http || fallback.http), ws: trim(ws || fallback.ws) };
};

export const chatHttp = (path: string): string => `${base.http}${path}`;
export const chatSocketUrl = (side: ChatSide, accessToken: string): string =>
  `${base.ws}${CHAT_SIDE[side].socket}?accessToken=${encodeURIComponent(accessToken)}`;
