// Checks of a value a forked process sent, shared by the check of its messages (messages.js) and of
// the measures it took (worker-measures.js).
export const amount = (v) => typeof v === 'number' && Number.isFinite(v) && v >= 0
export const object = (v) => v !== null && typeof v === 'object' && !Array.isArray(v)
