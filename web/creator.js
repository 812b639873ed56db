// The creator's proof of a match made from this browser (CreateMatchResponse.creator_token),
// which AbortMatch takes: kept in this browser's localStorage under the match's id, so that
// the creator's seat page, a reload of it and the match's live page can abort the match, and
// forgotten once it has ended. It is never put in a link, nor sent but to abort.
import { post } from './api.js';
import { h } from './common.js';

const key = (matchId) => `orrery-creator:${matchId}`;

export function keepCreator(matchId, token) {
  if (token) localStorage.setItem(key(matchId), token);
}

export function forgetCreator(matchId) { localStorage.removeItem(key(matchId)); }

// abortControl is an Abort button for match matchId if this browser created it, else null.
// It asks twice: a click arms it ("really abort?") until the pointer leaves it.
// onError shows the server's refusal. The end itself comes to
// the page as any end does (its stream's ended), and the page says so.
export function abortControl(matchId, onError) {
  const token = localStorage.getItem(key(matchId));
  if (!token) return null;
  const b = h('button', { id: 'abort', title: 'end the match for everyone, unrated, as aborted' }, 'abort');
  b.addEventListener('click', async () => {
    if (!b.dataset.armed) {
      b.dataset.armed = 'true';
      b.textContent = 'really abort?';
      return;
    }
    b.disabled = true;
    try {
      await post(`/v1/matches/${encodeURIComponent(matchId)}/abort`, { match_id: matchId, creator_token: token });
      forgetCreator(matchId);
    } catch (err) {
      b.disabled = false;
      delete b.dataset.armed;
      b.textContent = 'abort';
      onError(`abort refused: ${err.message}`);
    }
  });
  b.addEventListener('mouseleave', () => { if (!b.disabled) { delete b.dataset.armed; b.textContent = 'abort'; } });
  return b;
}
