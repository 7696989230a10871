// A light emoji picker, loaded only when first opened (its own chunk): a few hundred common emoji
// in groups, a grid that arrows move through, Enter or a click inserts.
import { useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

const GROUPS = {
  smileys: '😀 😃 😄 😁 😆 😅 😂 🤣 😊 😇 🙂 🙃 😉 😌 😍 🥰 😘 😗 😙 😚 😋 😛 😝 😜 🤪 🤨 🧐 🤓 😎 🥳 😏 😒 😞 😔 😟 😕 🙁 😣 😖 😫 😩 🥺 😢 😭 😤 😠 😡 🤯 😳 🥵 🥶 😱 😨 😰 😥 😓 🤗 🤔 🤭 🤫 🤥 😶 😐 😑 😬 🙄 😯 😦 😧 😮 😲 🥱 😴 🤤 😪 😵 🤐 🥴 🤢 🤮 🤧 😷 🤒 🤕',
  gestures: '👍 👎 👌 🤌 ✌️ 🤞 🤟 🤘 🤙 👈 👉 👆 👇 ☝️ ✋ 🤚 🖐️ 🖖 👋 🤝 🙏 👏 🙌 👐 🤲 💪 ✍️ 🫶 👀 🧠',
  hearts: '❤️ 🧡 💛 💚 💙 💜 🖤 🤍 🤎 💔 ❣️ 💕 💞 💓 💗 💖 💘 💝 ✨ ⭐ 🌟 💯 🔥 🎉 🎊 ✅ ❌ ⚠️ ❓ ❗',
  things: '📱 💻 ⌨️ 🖨️ 📞 ☎️ 📠 📷 🎥 📺 ⏰ ⌛ 💡 🔋 🔌 💰 💳 🧾 📦 📫 📝 📎 📌 📍 📅 📆 🗓️ 📊 📈 📉 🔒 🔑 🛒 🎁 🚚 🚗 ✈️ 🏠 🏢',
  nature: '☀️ 🌤️ ⛅ 🌧️ ⛈️ 🌈 ❄️ 🌊 🌱 🌿 🍀 🌵 🌴 🌳 🌻 🌹 🌷 🌸 🐶 🐱 🐭 🐰 🦊 🐻 🐼 🐨 🐯 🦁 🐮 🐷 🐸 🐵 🐔 🐧 🐦 🦋 🐢 🐟',
  food: '🍎 🍊 🍋 🍌 🍉 🍇 🍓 🍒 🍑 🥭 🍍 🥥 🥑 🍅 🥕 🌽 🥐 🍞 🧀 🥚 🍳 🥓 🍔 🍟 🍕 🌭 🥪 🌮 🌯 🍝 🍜 🍣 🍰 🎂 🍩 🍪 🍫 ☕ 🍵 🥤 🍺 🍷',
} as const;

type Props = { onPick: (emoji: string) => void; onClose: () => void };

export default function EmojiPicker({ onPick, onClose }: Props) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const onKeyDown = (e: KeyboardEvent) => {
    const buttons = [...(ref.current?.querySelectorAll<HTMLButtonElement>('button[data-emoji]') ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 8, ArrowUp: -8 }[e.key];
    if (e.key === 'Escape') {
      e.preventDefault();
      onClose();
    } else if (step !== undefined) {
      e.preventDefault();
      buttons[Math.min(Math.max(at + step, 0), buttons.length - 1)]?.focus();
    }
  };
  return (
    <div ref={ref} role="dialog" aria-label={t('tickets.chat.emoji')} onKeyDown={onKeyDown} className="max-h-72 w-72 overflow-y-auto rounded-lg border border-line bg-surface p-2 shadow-xl">
      {Object.entries(GROUPS).map(([group, list]) => (
        <section key={group}>
          <h3 className="px-1 pt-1 text-xs font-medium text-muted">{t(`tickets.chat.emojiGroups.${group}`)}</h3>
          <div className="grid grid-cols-8">
            {list.split(' ').map((emoji, i) => (
              <button
                key={emoji}
                type="button"
                data-emoji={emoji}
                autoFocus={group === 'smileys' && i === 0}
                onClick={() => onPick(emoji)}
                className="rounded p-1 text-xl leading-none hover:bg-raised focus:bg-raised focus:outline-none"
                aria-label={emoji}
              >
                {emoji}
              </button>
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}
