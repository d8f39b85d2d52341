// The page's end of hatskit's update batches (widgets/batch.py): one message from the kernel carries the
// changed state of many widgets, and each goes to its widget's model as ipywidgets' own "update"
// message would (through the model's message handler, so it queues behind any update still being
// applied to that model). Drawn as nothing; it tells the kernel once that it listens.

function apply(manager, [id, state]) {
  const update = { content: { data: { method: "update", state, buffer_paths: [] } }, buffers: [] };
  return Promise.resolve()
    .then(() => manager.get_model(id))
    .then((model) => model._handle_comm_msg(update))
    .catch(() => {}); // a widget closed in the meantime has nothing left to show
}

function initialize({ model }) {
  const manager = model.widget_manager;
  model.on("msg:custom", (content) => {
    if (content && Array.isArray(content.updates)) content.updates.forEach((pair) => apply(manager, pair));
  });
  model.send({ listening: true });
}

export default { initialize };
