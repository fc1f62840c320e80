export type Lang = 'tr' | 'en' | 'de';

export interface Strings {
  title: string;
  placeholder: string;
  send: string;
  open: string;
  close: string;
  typing: string;
  hint: string;
  helpful: string;
  notHelpful: string;
  thanks: string;
  /** Rate-limited: n units of time; unit 0 seconds, 1 minutes, 2 hours. */
  rate(n: number, unit: number): string;
  forbidden: string;
  conn: string;
  err: string;
  retry: string;
  banner: string;
  count(n: number, max: number): string;
  starters: string;
  log: string;
}

const tr: Strings = {
  title: 'Yardım asistanı',
  placeholder: 'Sorunuzu yazın…',
  send: 'Gönder',
  open: 'Sohbeti aç',
  close: 'Sohbeti kapat',
  typing: 'Asistan yazıyor…',
  hint: 'Aradığınız yanıt bu değil mi? Sorunuzu farklı sözcüklerle yeniden sormayı deneyin.',
  helpful: 'Faydalı',
  notHelpful: 'Faydalı değil',
  thanks: 'Geri bildiriminiz için teşekkürler!',
  rate: (n, u) => `Çok fazla istek gönderildi. Lütfen ${n} ${['saniye', 'dakika', 'saat'][u]} sonra tekrar deneyin.`,
  forbidden: 'Sohbet bu sitede kullanılamıyor.',
  conn: 'Bağlantı sorunu oluştu.',
  err: 'Bir şeyler ters gitti.',
  retry: 'Tekrar dene',
  banner: 'Şu anda yalnızca kayıtlı yanıtlarla hizmet verebiliyoruz; bazı sorular yanıtsız kalabilir.',
  count: (n, m) => `${n}/${m} karakter`,
  starters: 'Sık sorulan sorular',
  log: 'Mesajlar',
};

const en: Strings = {
  title: 'Help assistant',
  placeholder: 'Type your question…',
  send: 'Send',
  open: 'Open chat',
  close: 'Close chat',
  typing: 'The assistant is typing…',
  hint: 'Not what you were looking for? Try asking in other words.',
  helpful: 'Helpful',
  notHelpful: 'Not helpful',
  thanks: 'Thanks for your feedback!',
  rate: (n, u) => `Too many requests. Please try again in ${n} ${['second', 'minute', 'hour'][u]}${n === 1 ? '' : 's'}.`,
  forbidden: 'Chat is not available on this site.',
  conn: 'Connection problem.',
  err: 'Something went wrong.',
  retry: 'Try again',
  banner: 'Right now we can only answer from saved replies, so some questions may go unanswered.',
  count: (n, m) => `${n}/${m} characters`,
  starters: 'Popular questions',
  log: 'Messages',
};

const de: Strings = {
  title: 'Hilfe-Assistent',
  placeholder: 'Stellen Sie Ihre Frage…',
  send: 'Senden',
  open: 'Chat öffnen',
  close: 'Chat schließen',
  typing: 'Der Assistent schreibt…',
  hint: 'Nicht das, was Sie gesucht haben? Formulieren Sie Ihre Frage einfach anders.',
  helpful: 'Hilfreich',
  notHelpful: 'Nicht hilfreich',
  thanks: 'Danke für Ihr Feedback!',
  rate: (n, u) =>
    `Zu viele Anfragen. Bitte versuchen Sie es in ${n} ${['Sekunde', 'Minute', 'Stunde'][u]}${n === 1 ? '' : 'n'} erneut.`,
  forbidden: 'Der Chat ist auf dieser Website nicht verfügbar.',
  conn: 'Verbindungsproblem.',
  err: 'Etwas ist schiefgelaufen.',
  retry: 'Erneut versuchen',
  banner: 'Zurzeit können wir nur mit gespeicherten Antworten helfen; manche Fragen bleiben daher eventuell unbeantwortet.',
  count: (n, m) => `${n}/${m} Zeichen`,
  starters: 'Häufige Fragen',
  log: 'Nachrichten',
};

export const strings: Record<Lang, Strings> = { tr, en, de };

/** The first of the attribute and the browser's languages that is tr, en or de; else en. */
export function pickLang(attr: string | undefined): Lang {
  for (const l of [attr, ...(navigator.languages || []), navigator.language]) {
    const c = (l || '').trim().toLowerCase().split('-')[0];
    if (c === 'tr' || c === 'en' || c === 'de') return c;
  }
  return 'en';
}

/** Seconds as a rate-limit sentence: seconds up to 90, then minutes, then hours. */
export function waitText(t: Strings, s: number): string {
  s = Math.max(1, Math.ceil(s));
  if (s <= 90) return t.rate(s, 0);
  if (s <= 5400) return t.rate(Math.ceil(s / 60), 1);
  return t.rate(Math.ceil(s / 3600), 2);
}
