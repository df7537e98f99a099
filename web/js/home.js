// The home page: one big Play (a quick game, the nickname asked next to it), the other ways to
// play, and the lobby. Each part is a module of its own under home/. A signed-in account also
// sees what moderators did that concerns it, and the lobby without the players it blocked.
import { whoAmI } from './account.js';
import './header.js';
import { myBlocks } from './safety/blocks.js';
import { showNotices } from './safety/notices.js';
import { initComputer } from './home/computer.js';
import { initDevice } from './home/device.js';
import { initFriend } from './home/friend.js';
import { hideNames, initLobby } from './home/lobby.js';
import { refreshMyGames } from './home/my-games.js';
import { initNickname, renderNickname } from './home/nickname.js';
import { initNotice } from './home/notice.js';
import { initQuick } from './home/quick.js';
import { closeRanked, initRanked, renderRanked } from './home/ranked.js';

initNickname();
initQuick();
initRanked();
initFriend();
initComputer();
initDevice();
initNotice();
initLobby();

whoAmI().then((who) => {
  renderNickname(who);
  renderRanked(who);
  if (who.me) refreshMyGames();
  if (who.account) showAccountSide();
});

/** The account's notices (a sanction on it closes ranked games) and the names it blocked. */
async function showAccountSide() {
  const notices = document.getElementById('account-notices');
  const [answer, blocks] = await Promise.all([
    showNotices(notices, () => document.getElementById('quick-game')),
    myBlocks(),
  ]);
  if (answer && (answer.sanctions || []).some((sanction) => sanction.kind === 'engine' && !sanction.lifted_at)) closeRanked();
  hideNames(blocks.map((entry) => entry.name));
}
