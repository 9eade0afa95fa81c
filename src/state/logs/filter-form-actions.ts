import { checkWindow, draftOfForm, emptyDraft, FILTER_FIELDS, formFromDraft, pinWindow, validateDraft } from './filter-form';
import { infoStatus, type LogsSliceContext } from './slice-context';
import type { LogsState } from './types';

type FilterFormActions = Pick<LogsState, 'openForm' | 'setFormText' | 'focusField' | 'applyForm' | 'cancelForm' | 'clearServerFilters'>;

/** The logs store's server filters (`f`): the form, its checks, and a new query when they change. */
/** `pastRetention`: a log store is configured, so from/to may reach past the platform's 3 days. */
export function logsFilterFormActions(
  ctx: Pick<LogsSliceContext, 'get' | 'set' | 'ui' | 'now'>,
  restart: () => void,
  pastRetention = () => false,
): FilterFormActions {
  const { get, set, ui, now } = ctx;
  return {
    openForm() {
      set({ form: formFromDraft(get().filter) });
    },

    setFormText(text) {
      const form = get().form;
      if (!form) return;
      const id = FILTER_FIELDS[form.focus]!.id;
      const errors = { ...form.errors };
      delete errors[id];
      set({ form: { ...form, fields: { ...form.fields, [id]: text }, errors } });
    },

    focusField(delta) {
      const form = get().form;
      if (!form) return;
      const n = FILTER_FIELDS.length;
      set({ form: { ...form, focus: (form.focus + delta + n) % n } });
    },

    applyForm() {
      const form = get().form;
      if (!form) return false;
      const typed = draftOfForm(form);
      const errors = validateDraft(typed, now(), pastRetention());
      if (errors) {
        const first = FILTER_FIELDS.findIndex((f) => errors[f.id] !== undefined);
        set({ form: { ...form, errors, focus: first >= 0 ? first : form.focus } });
        ui.getState().setStatus(`not sent: ${Object.values(errors).join('; ')}`, 'error', 10_000);
        return false;
      }
      const absolute = checkWindow(typed, now(), pastRetention()).window;
      const draft = pinWindow(typed, absolute);
      const changed = FILTER_FIELDS.some((f) => draft[f.id] !== get().filter[f.id]);
      set({ form: null, filter: draft, absolute });
      if (changed) restart();
      return true;
    },

    cancelForm() {
      set({ form: null });
    },

    clearServerFilters() {
      const s = get();
      if (FILTER_FIELDS.every((f) => s.filter[f.id] === '')) {
        infoStatus(ctx, 'no server filters to clear', 3000);
        return;
      }
      set({ filter: emptyDraft(), absolute: null, form: null });
      restart();
      infoStatus(ctx, 'server filters cleared', 3000);
    },
  };
}
